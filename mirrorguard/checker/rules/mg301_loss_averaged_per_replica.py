"""MG301 loss-averaged-per-replica."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit, walk
from mirrorguard.checker.semantic.units import END_OF_UNIT, BindingKind

# A plain mean over the examples a replica sees.
_MEANS = frozenset(
    {
        "tensorflow.reduce_mean", "tensorflow.math.reduce_mean", "keras.ops.mean",
        "keras.backend.mean", "numpy.mean", "tensorflow.experimental.numpy.mean",
    }
)
_MAX_DEPTH = 16
# Methods that hand their argument back, rescaled: the loss is still that loss.
_PASS_THROUGH = frozenset({"get_scaled_loss", "scale_loss"})


def _is_mean(node: ast.AST, model: SemanticModel) -> bool:
    if not isinstance(node, ast.Call):
        return False
    if any(q in _MEANS for q in model.qualify(node.func)):
        return True
    # per_example_loss.mean() on a tensor; not np.mean-like module functions.
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "mean" and not node.args and not model.qualify(func)


def _scaled_by_replicas(node: ast.AST) -> bool:
    """``tf.reduce_mean(x) / strategy.num_replicas_in_sync``: already averaged over replicas."""
    return any(isinstance(n, ast.Attribute) and n.attr == "num_replicas_in_sync" for n in walk(node))


def _counts_replicas(node: ast.AST, unit: Unit, before: int, depth: int = 0) -> bool:
    """A divisor that is the replica count: ``strategy.num_replicas_in_sync`` itself, or a name
    bound to it (``n = tf.cast(strategy.num_replicas_in_sync, tf.float32)``) before ``before``."""
    if _scaled_by_replicas(node):
        return True
    if not isinstance(node, ast.Name) or depth > _MAX_DEPTH:
        return False
    scope: Unit | None = unit
    while scope is not None and node.id not in scope.bindings and node.id not in scope.params:
        scope, before = scope.parent, END_OF_UNIT  # a module constant read inside the step
    bindings = [b for b in scope.bindings.get(node.id, ()) if b.order < before] if scope is not None else []
    if not bindings or bindings[-1].value is None:
        return False
    return _counts_replicas(bindings[-1].value, scope, bindings[-1].order, depth + 1)


def _plain_means(node: ast.AST, unit: Unit, model: SemanticModel, before: int, depth: int = 0) -> Iterator[ast.Call]:
    """The mean calls that make up the loss ``node``: itself, a term of a sum,
    through the names it is bound to before ``before``, or returned by the
    file's own loss helper it calls."""
    if depth > _MAX_DEPTH:
        return
    forward_only = _gradient_passed_through(node, unit, model)
    if forward_only is not None:
        # tf.grad_pass_through(lambda x: x / n)(mean): the division changes the
        # forward value only; the gradient is the plain mean's, N times too large.
        yield from _plain_means(forward_only, unit, model, before, depth + 1)
        return
    if _scaled_by_replicas(node):
        return
    if _is_mean(node, model):
        if not _of_a_reduced_value(node, unit, before, model):  # type: ignore[arg-type]
            yield node  # type: ignore[misc]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        # a sum of terms, or a weighted mean (LAMBDA * tf.reduce_mean(...)): still per replica
        yield from _plain_means(node.left, unit, model, before, depth + 1)
        yield from _plain_means(node.right, unit, model, before, depth + 1)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        if _counts_replicas(node.right, unit, before):
            return  # mean / num_replicas, through the name the count is bound to
        yield from _plain_means(node.left, unit, model, before, depth + 1)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield from _plain_means(node.operand, unit, model, before, depth + 1)  # -tf.reduce_mean(log_prob)
    elif isinstance(node, ast.Name):
        bindings = [b for b in unit.bindings.get(node.id, ()) if b.order < before]
        # loss = tf.reduce_mean(...); loss += tf.nn.scale_regularization_loss(...): the mean counts,
        # unless an augmented step divides by the replicas (loss /= strategy.num_replicas_in_sync).
        augmented = []
        while len(bindings) > 1 and bindings[-1].kind is BindingKind.AUGMENTED:
            if bindings[-1].value is not None and _counts_replicas(bindings[-1].value, unit, bindings[-1].order):
                return
            augmented.append(bindings.pop())
        for binding in augmented:  # loss -= 0.01 * tf.reduce_mean(...): a term of the loss too
            if binding.value is not None:
                yield from _plain_means(binding.value, unit, model, binding.order, depth + 1)
        if bindings and bindings[-1].value is not None:
            binding = bindings[-1]
            expression, home = _element(binding, unit, model)
            yield from _plain_means(expression, home, model, binding.order if home is unit else END_OF_UNIT, depth + 1)
        elif not bindings:
            # optimizer.minimize(loss_fn, var_list): the loss is what loss_fn returns.
            function = model.function(node.id, unit)
            for returned in _returns(function) if function is not None else ():
                yield from _plain_means(returned, function, model, END_OF_UNIT, depth + 1)
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _PASS_THROUGH and node.args:
            # optimizer.get_scaled_loss(loss): the same loss, scaled for mixed precision
            yield from _plain_means(node.args[0], unit, model, before, depth + 1)
            return
        site = next((s for s in unit.calls if s.node is node), None)
        for target in model.callees(site) if site is not None else ():
            if isinstance(target, Unit):
                for returned in _returns(target):
                    yield from _plain_means(returned, target, model, END_OF_UNIT, depth + 1)


_GRAD_PASS_THROUGH = "tensorflow.grad_pass_through"


def _gradient_passed_through(node: ast.AST, unit: Unit, model: SemanticModel) -> ast.expr | None:
    """``x`` in ``tf.grad_pass_through(f)(x)``, or in ``op(x)`` after ``op = tf.grad_pass_through(f)``."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return None
    wrapper = node.func
    if isinstance(wrapper, ast.Name):
        scope: Unit | None = unit
        while scope is not None and wrapper.id not in scope.bindings and wrapper.id not in scope.params:
            scope = scope.parent
        bindings = scope.bindings.get(wrapper.id, ()) if scope is not None else ()
        wrapper = bindings[0].value if len(bindings) == 1 else None
    if isinstance(wrapper, ast.Call) and _GRAD_PASS_THROUGH in model.qualify(wrapper.func):
        return node.args[0]
    return None


_REDUCTIONS = frozenset({"compute_average_loss", "reduce_sum", "reduce_mean", "scale_regularization_loss"})


def _of_a_reduced_value(mean: ast.Call, unit: Unit, before: int, model: SemanticModel) -> bool:
    """``tf.reduce_mean(loss)`` where ``loss`` is already one number
    (``tf.nn.compute_average_loss(...)``, a sum or mean over everything, or a
    sum of such): no per-example mean is taken."""
    if len(mean.args) != 1 or mean.keywords:
        return False
    return _reduced(mean.args[0], unit, before, model, 0)


def _reduced(node: ast.AST, unit: Unit, before: int, model: SemanticModel, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.BinOp):
        return (_reduced(node.left, unit, before, model, depth + 1)
                and _reduced(node.right, unit, before, model, depth + 1))
    if isinstance(node, ast.Name):
        bindings = [b for b in unit.bindings.get(node.id, ()) if b.order < before and b.value is not None]
        return bool(bindings) and _reduced(bindings[-1].value, unit, bindings[-1].order, model, depth + 1)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _REDUCTIONS:
        return len(node.args) <= 1 and not any(k.arg in ("axis", "keepdims") for k in node.keywords)
    site = next((s for s in unit.calls if s.node is node), None)
    targets = [t for t in model.callees(site) if isinstance(t, Unit)] if site is not None else []
    return bool(targets) and all(
        _reduced(returned, target, END_OF_UNIT, model, depth + 1)
        for target in targets for returned in _returns(target)
    )


def _returns(unit: Unit) -> Iterator[ast.expr]:
    """What the unit returns: a lambda's body, or a function's ``return`` values."""
    if isinstance(unit.node, ast.Lambda):
        yield unit.node.body
        return
    pending = list(getattr(unit.node, "body", ()))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            yield node.value
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))


def _element(binding, unit: Unit, model: SemanticModel) -> tuple[ast.expr, Unit]:
    """What a name is bound to, and in which unit: for ``total, logs = compute_loss(...)``
    the returned tuple's element for this name, in the helper."""
    if binding.index is None:
        return binding.value, unit
    value = binding.value
    if isinstance(value, ast.Call):
        site = next((s for s in unit.calls if s.node is value), None)
        for target in model.callees(site) if site is not None else ():
            if isinstance(target, Unit):
                for returned in _returns(target):
                    if isinstance(returned, ast.Tuple) and binding.index < len(returned.elts):
                        return returned.elts[binding.index], target
    if isinstance(value, ast.Tuple) and binding.index < len(value.elts):
        return value.elts[binding.index], unit
    return ast.Constant(None), unit


def _differentiates_variables(site: CallSite) -> bool:
    """``tape.gradient(loss, model.trainable_variables)``, not ``tape.gradient(loss, images)``
    (an input gradient, as FGSM takes: nothing is summed across replicas)."""
    sources = site.node.args[1] if len(site.node.args) > 1 else getattr(site.keyword("sources"), "value", None)
    if sources is None:
        return True
    watched = {
        arg.id for other in site.unit.calls if other.method == "watch" for arg in other.node.args
        if isinstance(arg, ast.Name)
    }
    names = {n.id for n in walk(sources) if isinstance(n, ast.Name)}
    return not (names and names <= (site.unit.params | watched) and not any(
        isinstance(n, ast.Attribute) for n in walk(sources)))


def differentiated_loss(site: CallSite) -> ast.expr | None:
    """The loss in ``tape.gradient(loss, ...)`` or ``optimizer.minimize(loss, ...)``."""
    if site.method == "gradient":
        if not _differentiates_variables(site):
            return None
        if site.node.args:
            return site.node.args[0]
        keyword = site.keyword("target")
        return keyword.value if keyword is not None else None
    if site.method == "minimize":
        if site.node.args:
            return site.node.args[0]
        keyword = site.keyword("loss")
        return keyword.value if keyword is not None else None
    return None


_APPLIES = frozenset({"apply_gradients", "apply"})
_MEAN_OPS = frozenset({"mean", "MEAN"})


def _is_mean_all_reduce(node: ast.AST | None) -> bool:
    """``replica_ctx.all_reduce("mean", grads)`` / ``all_reduce(tf.distribute.ReduceOp.MEAN, grads)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "all_reduce"):
        return False
    keyword = next((k for k in node.keywords if k.arg == "reduce_op"), None)
    op = node.args[0] if node.args else (keyword.value if keyword is not None else None)
    if isinstance(op, ast.Constant):
        return op.value in _MEAN_OPS
    return isinstance(op, ast.Attribute) and op.attr == "MEAN"


def _last_binding(name: str, unit: Unit, before: int):
    bindings = [b for b in unit.bindings.get(name, ()) if b.order < before]
    return bindings[-1] if bindings else None


def _optimizer_not_keras(receiver: str | None, unit: Unit, model: SemanticModel) -> bool:
    """Is ``receiver`` bound to an optimizer of a library that does not sum the
    replicas' gradients itself (``snt.optimizers.SGD(...)``)? Keras optimizers
    (Keras 3 and tf-keras) and TensorFlow's own all-reduce them with SUM inside
    ``strategy.run``; a receiver whose constructor is not known counts as one."""
    if receiver is None or "." in receiver:
        return False
    scope: Unit | None = unit
    while scope is not None and receiver not in scope.bindings and receiver not in scope.params:
        scope = scope.parent
    if scope is None or receiver in scope.params:
        return False
    bindings = scope.bindings[receiver]
    if not bindings:
        return False
    for binding in bindings:
        value = binding.value
        if binding.kind is not BindingKind.ASSIGNMENT or not isinstance(value, ast.Call):
            return False
        qualified = model.qualify(value.func)
        if not qualified or any(api.creates_optimizer(q) or q.startswith(("tensorflow.", "keras.")) for q in qualified):
            return False
    return True


def _mean_reduced_for_own_optimizer(site: CallSite, model: SemanticModel) -> bool:
    """``grads = tape.gradient(loss, vs)`` all-reduced by hand with MEAN and applied
    only in that form, by optimizers that do not sum the replicas' gradients
    again (Sonnet's ``optimizer.apply(grads, vs)``): the update is the mean over
    the global batch, so a per-replica mean loss is right."""
    unit = site.unit
    gradients = set(site.targets)
    if not gradients or site.method != "gradient":
        return False
    reduced: set[str] = set()
    for other in unit.calls:
        if other.order > site.order and _is_mean_all_reduce(other.node) and other.arg_refs & gradients:
            reduced.update(other.targets)
    if not reduced:
        return False
    applied = False
    for other in unit.calls:
        if other.order <= site.order or not other.arg_refs & (gradients | reduced):
            continue
        if _is_mean_all_reduce(other.node):
            continue
        if other.method not in _APPLIES:
            continue  # an optimizer only applies them
        for name in other.arg_refs & (gradients | reduced):
            binding = _last_binding(name, unit, other.order)
            if binding is None or not _is_mean_all_reduce(binding.value):
                return False  # the gradients as the tape gave them
        if not _optimizer_not_keras(other.receiver, unit, model):
            return False  # a Keras optimizer sums the mean-reduced gradients again (measured)
        applied = True
    return applied


def check(context: Context) -> Iterator[Report]:
    model = context.model
    seen: set[int] = set()
    for unit in model.units:
        if not model.is_replica_function(unit):
            continue
        for site in unit.calls:
            loss = differentiated_loss(site)
            if loss is None:
                continue
            if _mean_reduced_for_own_optimizer(site, model):
                continue
            if isinstance(loss, ast.Lambda):  # optimizer.minimize(lambda: ..., var_list)
                loss = loss.body
            for mean in _plain_means(loss, unit, model, site.order):
                if id(mean) in seen:
                    continue
                seen.add(id(mean))
                yield Report(mean, (
                    f"`{context.callee(mean)}` averages the loss over one replica's examples, and the "
                    f"replicas' gradients are summed: they come out {model.strategy_name}.num_replicas_in_sync "
                    f"times too large; use `tf.nn.compute_average_loss(per_example_loss, "
                    f"global_batch_size=GLOBAL_BATCH_SIZE)`"
                ))


RULE = Rule(
    code="MG301",
    name="loss-averaged-per-replica",
    summary="Loss averaged over one replica's examples inside a replica function",
    check=check,
    docs="""
    ## What it does
    In a replica function (the function given to `strategy.run`, directly or
    from a `tf.function`), flags a loss that is differentiated
    (`tape.gradient(loss, ...)`, `optimizer.minimize(loss, ...)`) when it is a
    plain mean of the per-example losses: `tf.reduce_mean`,
    `tf.math.reduce_mean`, `keras.ops.mean`, `.mean()`, including the mean of a
    loss object built with `reduction="none"`, directly, through the names it
    is bound to, as a term of a sum, or returned by the file's own loss helper.
    A division behind `tf.grad_pass_through(lambda x: x / n)(mean)` scales the
    forward value only, so that mean is still reported.

    ## Why is this bad?
    Each replica averages over its own share of the batch, then
    `apply_gradients` *sums* the replicas' gradients: the update is
    `num_replicas_in_sync` times too large, silently. Measured (2 CPU replicas,
    one `Dense(1)` weight = 1, MSE, `SGD(1.0)`, global batch 8, Keras 3 and
    tf-keras alike): after one step the weight is -3.0 on 2 replicas and -1.0
    on one device; `tf.nn.compute_average_loss` gives -1.0 on both.
    All-reducing the gradients by hand with `"mean"` does not help a Keras
    optimizer: it sums the reduced gradients again (Keras 3.15, TF 2.21, same
    set-up: -3.0). An optimizer of another library that does not aggregate
    (Sonnet's `snt.optimizers`, whose `apply` updates the variables as given)
    applies that mean as it is: a per-replica mean loss whose gradients are
    `all_reduce("mean", ...)`-ed and applied only by such an optimizer is
    right and not reported.

    ## Example
    ```python
    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = tf.reduce_mean(loss_object(labels, predictions))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))

    strategy.run(train_step, args=(batch,))
    ```

    ## Use instead
    ```python
    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            per_example_loss = loss_object(labels, predictions)  # reduction="none"
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
            if model.losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model.losses))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/custom_training#define_the_loss_function
    """,
    valid=(
        Case("""
        # google/uncertainty-baselines: the replica count bound to a name through tf.cast, then divided by
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def train_step(x, y):
            num_replicas = tf.cast(strategy.num_replicas_in_sync, tf.float32)
            with tf.GradientTape() as tape:
                nll = tf.reduce_mean(tf.square(model(x) - y))
                scaled_loss = nll / num_replicas
            grads = tape.gradient(scaled_loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        @tf.function
        def distributed_step(x, y):
            strategy.run(train_step, args=(x, y))
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def train_step(x, y):
            with tf.GradientTape() as tape:
                per_example = loss_object(y, model(x, training=True))
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        @tf.function
        def distributed_step(x, y):
            strategy.run(train_step, args=(x, y))
        """),
        Case("""
        import tensorflow as tf
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(loss_object(y, model(x, training=True)))
            grads = tape.gradient(loss, model.trainable_variables)
        strategy = tf.distribute.MirroredStrategy()
        """),
        # google-deepmind/sonnet examples/distributed_cifar10.ipynb: the gradients of the
        # per-replica mean are all-reduced with "mean" by hand and applied by a Sonnet optimizer.
        Case("""
        import sonnet as snt
        import tensorflow as tf
        strategy = snt.distribute.Replicator(["/device:GPU:0", "/device:GPU:1"])
        with strategy.scope():
            model = snt.nets.MLP([1])
            optimizer = snt.optimizers.Momentum(0.1, 0.9)
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            replica_ctx = tf.distribute.get_replica_context()
            grads = replica_ctx.all_reduce("mean", grads)
            optimizer.apply(grads, model.trainable_variables)
        @tf.function
        def train_step(x, y):
            strategy.run(step, args=(x, y))
        """),
    ),
    invalid=(
        # The same hand-written mean all-reduce before a Keras optimizer: it sums the replicas'
        # gradients again (measured, Keras 3.15 on 2 CPU replicas: -3.0 where one device gives -1.0).
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            optimizer = tf.keras.optimizers.SGD(0.1)
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            grads = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.MEAN, grads)
            optimizer.apply(grads, model.trainable_variables)
        @tf.function
        def train_step(x, y):
            strategy.run(step, args=(x, y))
        """, lines=(8,)),
        # A Sonnet optimizer given the gradients as the tape made them (the all-reduced copy unused).
        Case("""
        import sonnet as snt
        import tensorflow as tf
        strategy = snt.distribute.Replicator(["/device:GPU:0", "/device:GPU:1"])
        with strategy.scope():
            model = snt.nets.MLP([1])
            optimizer = snt.optimizers.SGD(0.1)
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            averaged = tf.distribute.get_replica_context().all_reduce("mean", grads)
            optimizer.apply(grads, model.trainable_variables)
        @tf.function
        def train_step(x, y):
            strategy.run(step, args=(x, y))
        """, lines=(9,)),
        Case("""
        # divided by a name that holds something else than the replica count: still per replica
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def train_step(x, y):
            accumulation = tf.cast(4, tf.float32)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y)) / accumulation
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        @tf.function
        def distributed_step(x, y):
            strategy.run(train_step, args=(x, y))
        """, lines=(7,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(loss_object(y, model(x, training=True)))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        @tf.function
        def distributed_step(x, y):
            strategy.run(train_step, args=(x, y))
        """, lines=(5,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def compute_loss(labels, predictions):
            per_example_loss = loss_object(labels, predictions)
            return tf.math.reduce_mean(per_example_loss)
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = compute_loss(y, model(x))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        strategy.run(step, args=(x, y))
        """, lines=(5,)),
        # tf.grad_pass_through (its use as a forward-only op: mtgdraftbots' `max_op`,
        # sionna's clipping): dividing in the forward pass leaves the gradient N times too large.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        per_replica = tf.grad_pass_through(lambda x: x / strategy.num_replicas_in_sync)
        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = per_replica(tf.reduce_mean(loss_object(y, model(x, training=True))))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        strategy.run(train_step, args=(x, y))
        """, lines=(6,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def train_step(x, y):
            with tf.GradientTape() as tape:
                mean = tf.reduce_mean(loss_object(y, model(x, training=True)))
                loss = tf.grad_pass_through(lambda v: v / strategy.num_replicas_in_sync)(mean)
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        strategy.run(train_step, args=(x, y))
        """, lines=(5,)),
    ),
)
