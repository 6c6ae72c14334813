"""MG103 optimizer-or-metric-outside-strategy-scope."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules import mg101_model_built_outside_strategy_scope as mg101
from mirrorguard.checker.rules import mg102_compile_outside_strategy_scope as mg102
from mirrorguard.checker.rules import mg104_model_loaded_outside_strategy_scope as mg104
from mirrorguard.checker.rules.base import Case, Context, Fix, Report, Rule
from mirrorguard.checker.semantic import CallSite, Effect, SemanticModel, Unit, walk
from mirrorguard.checker.semantic.units import END_OF_UNIT, BindingKind, argument_for
from mirrorguard.checker.semantic.syntax import ref_key

_REPLICA_RUN = frozenset({"run", "experimental_run_v2", "call_for_each_replica"})
# optimizer.apply_gradients(zip(grads, v)), optimizer.apply(grads, v), optimizer.minimize(loss, var_list=v)
_APPLIES = frozenset({"apply_gradients", "apply", "minimize"})
_VARIABLES = frozenset({"trainable_variables", "trainable_weights", "variables", "weights"})
_DEPTH = 6
# A helper that also builds, loads or compiles a model is reported for that.
_MODEL_WORK = frozenset({mg101.EFFECT.code, mg102.EFFECT.code, mg104.EFFECT.code})


def _creates(site: CallSite, model: SemanticModel | None = None) -> bool:
    if any(api.creates_optimizer(q) or api.creates_metric(q) for q in site.qualified):
        return True
    # getattr(tf.keras.optimizers, cfg["name"])(**cfg["args"])
    func = site.node.func
    if (model is not None and isinstance(func, ast.Call) and isinstance(func.func, ast.Name)
            and func.func.id == "getattr" and func.args):
        return any(q in ("keras.optimizers", "keras.metrics") for q in model.qualify(func.args[0]))
    return False


def creates_optimizer_or_metric(site: CallSite, model: SemanticModel) -> bool:
    """An optimizer or metric object made by this call, not inside ``compile(...)``
    or another optimizer's arguments (those are judged with the outer call)."""
    if not _creates(site, model):
        return False
    return not site.is_inside(lambda outer: _creates(outer, model) or (
        mg102.compiles_model(outer, model) and not mg102.compiles_in_own_scope(outer, model)))


def _handed_to_own_scope_compile(site: CallSite, model: SemanticModel) -> bool:
    """``net.compile(optimizer=Adam())`` where ``net``'s class enters the scope in
    ``compile()``: the optimizer itself is made outside (Keras 3 then fails at
    ``fit`` with "Mixing different tf.distribute.Strategy objects", FACTS.md)."""
    return site.is_inside(lambda outer: mg102.compiles_in_own_scope(outer, model))


EFFECT = Effect("MG103", creates_optimizer_or_metric)


def used_with_strategy(site: CallSite, model: SemanticModel) -> bool:
    """Does the object the call makes end up with the strategy's model:
    compiled, used in a scope or a replica step, assigned to ``model.optimizer``,
    wrapped or aliased into something that is, handed to ``strategy.run`` or to
    the file's own function that compiles with it, enters a scope or runs a
    step; or, made in a Keras model's class body, used by its methods?"""
    if site.class_body is not None:
        methods = [u for u in model.units if u.class_name == site.class_body]
        if methods and _used(methods[0], tuple(f"self.{t}" for t in site.targets), -1, model, set()):
            return True
    return _used(site.binding_unit, site.targets, site.order, model, set(), model.held_key(site))


def _used(unit: Unit, targets, after: int, model: SemanticModel, seen: set, key: str | None = None) -> bool:
    """Is the binding of ``targets`` that ``unit`` makes after walk order
    ``after`` used with the strategy (see :func:`used_with_strategy`)? With
    ``key``, the object is held under that key of the container ``targets``
    names: a read of another key (``metrics["train/loss"]``) does not use it."""
    if any(target.endswith(".optimizer") for target in targets):
        return True
    for target in targets:
        if (id(unit), target, after) in seen:
            continue
        seen.add((id(unit), target, after))
        start, end = unit.window(target, after) if not target.startswith("self.") else (-1, END_OF_UNIT)
        for other_unit in model.units_seeing(unit, target):
            if other_unit is not unit and not model.seen_by_functions(unit, target, end):
                continue  # functions see the binding that replaces this one

            def holds(order: int, other_unit=other_unit) -> bool:
                return start <= order < end if other_unit is unit else True

            reads = other_unit.reads_between(target, start, end) if other_unit is unit else other_unit.reads_of(target)
            if key is not None:
                reads = [r for r in reads if r.key is None or r.key == key]
            if not reads:
                continue
            if any(r.in_scope for r in reads):
                return True
            if model.is_replica_function(other_unit) or other_unit.class_name in model.model_classes:
                return True  # a step strategy.run runs, or a tracker a model's train_step uses
            for other in other_unit.calls:
                if (other.receiver == target and other.method in _APPLIES and holds(other.order)
                        and _applies_to_scoped_variables(other, model)):
                    return True  # optimizer.apply_gradients(zip(grads, model.trainable_variables))
                if target not in other.arg_refs or not holds(other.order):
                    continue
                if mg102.compiles_model(other, model):
                    if not mg102.compiles_unreplicated_model(other, model):
                        return True
                elif _creates(other):
                    # LossScaleOptimizer(base): base is used if the wrapper is.
                    if _used(other.binding_unit, other.targets, other.order, model, seen):
                        return True
                elif _runs_replicas(other, model):
                    return True  # strategy.run(step, args=(optimizer, ...))
                elif other.callee is not None and not model.effects_of(other):
                    if _callee_trains(other, model):
                        return True
                    # train_step(x, optimizer, encoder): follow it into the parameter it is bound to
                    for function in model.callees(other):
                        if not isinstance(function, Unit):
                            continue
                        params = tuple(p for p in function.params if _is_name(argument_for(other, function, p), target))
                        if params and _used(function, params, -1, model, seen):
                            return True
            # def make_model(metrics=METRICS): the default hands it to the function.
            for function in model.units:
                if function.parent is other_unit:
                    for param, default in function.defaults.items():
                        if _reads(default, target) and _used(function, (param,), -1, model, seen):
                            return True
            # optimizer = base_optimizer
            for alias, bindings in other_unit.bindings.items():
                for binding in bindings:
                    # opt = base_opt; for opt in OPTIMIZERS.values()
                    aliased = (isinstance(binding.value, ast.Name) and binding.value.id == target) or (
                        binding.kind is BindingKind.LOOP and _reads(binding.value, target)
                    )
                    if aliased and holds(binding.order) and _used(other_unit, (alias,), binding.order - 1, model, seen):
                        return True
    return False


def _is_name(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _applies_to_scoped_variables(site: CallSite, model: SemanticModel) -> bool:
    """Does ``optimizer.apply_gradients(...)`` (``apply``, ``minimize``) update the
    variables of an object made inside a strategy scope: ``zip(grads,
    model.trainable_variables)`` with ``model`` built in the scope (also through
    names, parameters, ``self.model`` and the file's functions that return it)?
    The optimizer then updates mirrored variables: Keras 3 fails on the first step
    when the optimizer was made outside the scope (FACTS.md)."""
    arguments = [*site.node.args, *(k.value for k in site.node.keywords)]
    seen: set[int] = set()
    return any(_reads_scoped_variables(arg, site.unit, site.order, model, 0, seen) for arg in arguments)


def _reads_scoped_variables(node: ast.AST, unit: Unit, order: int, model: SemanticModel, depth: int,
                            seen: set[int]) -> bool:
    """Does the expression read ``x.trainable_variables`` (``weights``...) of an
    ``x`` made in a scope, directly or through a name bound to such an expression?
    (``seen``: the expressions already followed, each once.)"""
    if depth > _DEPTH or id(node) in seen:
        return False
    seen.add(id(node))
    for inner in walk(node):
        if isinstance(inner, ast.Attribute) and inner.attr in _VARIABLES:
            owner = ref_key(inner.value)
            if owner is not None and _made_in_scope(owner, unit, order, model, depth + 1):
                return True
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load):
            # variables = encoder.trainable_variables + decoder.trainable_variables
            for binding, scope in _bindings_at(inner.id, unit, order, model):
                if binding.value is not None and binding.kind is not BindingKind.PARAMETER and (
                        _reads_scoped_variables(binding.value, scope, binding.order, model, depth + 1, seen)):
                    return True
    return False


def _bindings_at(name: str, unit: Unit, order: int, model: SemanticModel):
    """The bindings of ``name`` that a read in ``unit`` at ``order`` may see, with
    the unit that makes each: the last before the read in the unit itself (and
    those on other branches of its if), else every binding of an enclosing unit,
    else, for ``self.x``, every binding in the class's methods."""
    if name.startswith("self."):
        return [(b, u) for u in model.units if u.class_name and u.class_name == unit.class_name
                for b in u.bindings.get(name, ())]
    scope: Unit | None = unit
    while scope is not None:
        bindings = scope.bindings.get(name)
        if bindings:
            if scope is unit:
                before = [b for b in bindings if b.order < order]
                if before:
                    last = before[-1]
                    return [(b, scope) for b in before if b is last or b.never_together_with(last)]
            else:
                return [(b, scope) for b in bindings]
        scope = scope.parent
    return []


def _made_in_scope(name: str, unit: Unit, order: int, model: SemanticModel, depth: int) -> bool:
    """Is the object ``name`` holds at ``order`` in ``unit`` made by a call inside
    a strategy scope: bound there, passed in for a parameter by a caller that holds
    one, or returned so by the file's own function (``encoder, decoder =
    define_model()`` whose body builds them in its scope)?"""
    if depth > _DEPTH:
        return False
    key = ("MG103 made in scope", name, id(unit), order)
    found = model.cache.get(key)
    if found is None:
        model.cache[key] = False  # a cycle counts as no
        found = model.cache[key] = _made_in_scope_uncached(name, unit, order, model, depth)
    return found


def _made_in_scope_uncached(name: str, unit: Unit, order: int, model: SemanticModel, depth: int) -> bool:
    for binding, scope in _bindings_at(name, unit, order, model):
        if binding.kind is BindingKind.PARAMETER:
            for caller in scope.callers:
                argument = argument_for(caller, scope, name)
                owner = ref_key(argument) if argument is not None else None
                if owner is not None and _made_in_scope(owner, caller.unit, caller.order, model, depth + 1):
                    return True
            continue
        value = binding.value
        if binding.index is not None and isinstance(value, (ast.Tuple, ast.List)):
            value = value.elts[binding.index] if binding.index < len(value.elts) else None
        if isinstance(value, (ast.Name, ast.Attribute)):
            owner = ref_key(value)
            if owner is not None and _made_in_scope(owner, scope, binding.order, model, depth + 1):
                return True
        if not isinstance(value, ast.Call):
            continue
        site = next((s for s in scope.calls if s.node is value), None)
        if site is None:
            continue
        if site.in_scope:
            return True
        for function in model.callees(site):
            if isinstance(function, Unit) and _returns_scoped(function, binding.index, model, depth + 1):
                return True
    return False


def _returns_scoped(function: Unit, index: int | None, model: SemanticModel, depth: int) -> bool:
    """Does the file's function return (at position ``index`` of a tuple) an object made in a scope?"""
    for node in walk(function.node):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        if index is not None:
            if not isinstance(value, ast.Tuple) or index >= len(value.elts):
                continue
            value = value.elts[index]
        owner = ref_key(value)
        if owner is not None and _made_in_scope(owner, function, END_OF_UNIT, model, depth):
            return True
    return False


def _helper_hands_it_on(site: CallSite, model: SemanticModel) -> bool:
    """``trainer.configure_optimizers()`` whose method stores ``self.optimizer = Adam()``:
    what the helper makes outside any scope of its own is used with the strategy."""
    for target in model.callees(site):
        if isinstance(target, Unit):
            for inner in target.calls:
                if not inner.in_scope and model.has_effect(inner, EFFECT.code) and used_with_strategy(inner, model):
                    return True
    return False


def _runs_replicas(site: CallSite, model: SemanticModel) -> bool:
    func = site.node.func
    return site.method in _REPLICA_RUN and isinstance(func, ast.Attribute) and model.is_strategy(func.value)


def _reads(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in walk(node))


def _callee_trains(site: CallSite, model: SemanticModel) -> bool:
    """Is the callee one of the file's functions (or classes) that compiles,
    enters a scope or runs a replica step, so that what it is given ends up
    with the model?"""
    for target in model.callees(site):
        if not isinstance(target, Unit):
            continue
        units = [target]
        if target.class_name and target.name == "__init__":
            units = [u for u in model.units if u.class_name == target.class_name]
        for unit in units:
            if unit.owns_strategy or any(
                mg102.compiles_model(s, model) or _runs_replicas(s, model) for s in unit.calls
            ):
                return True
    return False


def check(context: Context) -> Iterator[Report]:
    model = context.model
    for exposure in model.unscoped(EFFECT.code):
        site = exposure.site
        if exposure.via and exposure.codes & _MODEL_WORK:
            continue
        if not (used_with_strategy(site, model) or (exposure.via and _helper_hands_it_on(site, model))
                or _handed_to_own_scope_compile(site, model)):
            continue
        if exposure.via:
            kind = "an optimizer or metric"
        else:
            kind = "a metric" if site.qualified and api.creates_metric(site.qualified[0]) else "an optimizer"
        yield Report(site.node, context.outside_scope(exposure, f"creates {kind}", act="create it",
                                                      act_via="create it", then=" that the strategy's model uses"))


RULE = Rule(
    code="MG103",
    name="optimizer-or-metric-outside-strategy-scope",
    summary="Optimizer or metric object created outside `strategy.scope()` and used with the strategy's model",
    fix=Fix.MOVE_INTO_SCOPE,
    check=check,
    effect=EFFECT,
    docs="""
    ## What it does
    Flags optimizer objects (`keras.optimizers.*`, `LossScaleOptimizer`) and
    metric objects (`keras.metrics.*` classes) created outside the strategy's
    scope and then used by the model: passed to `compile()`, used inside the
    scope, assigned to `model.optimizer`, used in a step function run by
    `strategy.run`, or applied to the variables of a model made in a scope
    (`optimizer.apply_gradients(zip(grads, model.trainable_variables))`,
    `apply`, `minimize`), also in a plain `tf.function`, through the file's
    own functions and their parameters. It is reported where the object is created. Strings
    (`"adam"`, `"accuracy"`) and loss objects hold no variables and are fine.
    A metric held in a dict under a key (`metrics["test/auc"] = AUC()`,
    `metrics.update({"test/auc": AUC()})`) is used only where that key (or
    the whole dict) is read: one added for host-side evaluation beside the
    replica step's own keys is not reported. An evaluation `step_fn` called
    directly is not the training `step_fn` given to `strategy.run`, whatever
    their names.

    ## Why is this bad?
    Optimizers and metrics own variables (slots, iteration counters, totals).
    Created outside the scope they belong to the default strategy: Keras 3
    fails at `fit()` with `RuntimeError: Mixing different tf.distribute.Strategy
    objects`, and custom training loops update unmirrored state. Applied in a plain
    `tf.function` (no `strategy.run`) to a model built in the scope, Keras 3.15 fails
    on the first step with `TypeError: tuple indices must be integers or slices, not
    MirroredVariable`. There an optimizer with slots (Adam, momentum) made in the
    scope still builds them on its first apply, outside it ("Need to be inside
    `with strategy.scope()`"): build it in the scope too,
    `optimizer.build(model.trainable_variables)` (measured, 2 CPU replicas).

    ## Example
    ```python
    optimizer = tf.keras.optimizers.Adam(1e-3)
    with strategy.scope():
        model = build_model()
        model.compile(optimizer=optimizer, loss="mse")
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = build_model()
        optimizer = tf.keras.optimizers.Adam(1e-3)
        model.compile(optimizer=optimizer, loss="mse")
    ```
    """,
    valid=(
        # Issue 17: a metric added to the step's dict under a key only host-side code reads
        # (google/uncertainty-baselines clinc_intent/deterministic.py, "OOD metrics outside the
        # accelerator scope for CPU eval"): the replica step reads other keys only.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
            metrics = {"train/loss": tf.keras.metrics.Mean()}
        metrics.update({"test/auroc": tf.keras.metrics.AUC(curve="ROC")})
        def step_fn(x):
            metrics["train/loss"].update_state(tf.reduce_sum(model(x)))
        strategy.run(step_fn, args=(x,))
        def eval_step(x, labels):
            metrics["test/auroc"].update_state(labels, model(x)[:, 1])
        """),
        # An evaluation `step_fn` called directly is not the training `step_fn` strategy.run runs.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        auc = tf.keras.metrics.AUC()
        def train_step(x):
            def step_fn(x):
                return model(x)
            strategy.run(step_fn, args=(x,))
        def test_step(x, labels):
            def step_fn(x):
                auc.update_state(labels, model(x)[:, 1])
            step_fn(x)
        """),
        # The optimizer outside the scope applies gradients to a model built outside it too
        # (a host-side copy): neither meets the strategy's variables.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
        probe = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
        probe_optimizer = tf.keras.optimizers.SGD(0.1)
        @tf.function
        def probe_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(probe(x) - y))
            grads = tape.gradient(loss, probe.trainable_variables)
            probe_optimizer.apply_gradients(zip(grads, probe.trainable_variables))
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        loss = tf.keras.losses.SparseCategoricalCrossentropy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss=loss, metrics=["accuracy"])
        """),
    ),
    invalid=(
        # The same dict, the key read in the replica step: the metric is used per replica.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
            metrics = {"train/loss": tf.keras.metrics.Mean()}
        metrics["train/auc"] = tf.keras.metrics.AUC()
        def step_fn(x, y):
            metrics["train/auc"].update_state(y, model(x)[:, 1])
        strategy.run(step_fn, args=(x, y))
        """, lines=(6,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
            metrics = {"train/loss": tf.keras.metrics.Mean()}
            metrics["train/auc"] = tf.keras.metrics.AUC()
        def step_fn(x, y):
            metrics["train/auc"].update_state(y, model(x)[:, 1])
        strategy.run(step_fn, args=(x, y))
        """),
        # kubeflow/examples distributed_nmt_with_attention.py: models built in the scope by a helper,
        # the optimizer made outside and applied in a plain tf.function (no strategy.run, no compile).
        # Keras 3.15, 2 CPU replicas: TypeError on the first step; made in the scope, it trains.
        Case("""
        import tensorflow as tf
        def define_model():
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                encoder = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(4)])
                decoder = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
            return encoder, decoder
        @tf.function
        def train_step(x, y, optimizer, encoder, decoder):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(decoder(encoder(x)) - y))
            variables = encoder.trainable_variables + decoder.trainable_variables
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        class Translation:
            def __init__(self):
                self.encoder, self.decoder = define_model()
            def train(self, x, y):
                optimizer = tf.keras.optimizers.Adam()
                train_step(x, y, optimizer, self.encoder, self.decoder)
        if __name__ == "__main__":
            translation = Translation()
            translation.train(tf.zeros([8, 1]), tf.zeros([8, 1]))
        """, lines=(18,)),
        # An optimizer made outside, handed to a model class's compile() that enters the scope itself.
        Case("""
        import keras
        import tensorflow as tf
        class Net(keras.Model):
            def compile(self, **kwargs):
                with self.strategy.scope():
                    super().compile(**kwargs)
        strategy = tf.distribute.MirroredStrategy()
        net = Net()
        net.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
        """, lines=(9,), fixed="""
        import keras
        import tensorflow as tf
        class Net(keras.Model):
            def compile(self, **kwargs):
                with self.strategy.scope():
                    super().compile(**kwargs)
        strategy = tf.distribute.MirroredStrategy()
        net = Net()
        with strategy.scope():
            net.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        optimizer = tf.keras.optimizers.Adam(1e-3)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=optimizer, loss="mse")
        """, lines=(3,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            optimizer = tf.keras.optimizers.Adam(1e-3)
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=optimizer, loss="mse")
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        metrics = [tf.keras.metrics.AUC(), "accuracy"]
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse", metrics=metrics)
        """, lines=(3,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            metrics = [tf.keras.metrics.AUC(), "accuracy"]
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse", metrics=metrics)
        """),
    ),
)
