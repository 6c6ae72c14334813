"""MG105 variable-created-outside-strategy-scope."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, Fix, Report, Rule
from mirrorguard.checker.semantic import CallSite, Effect, SemanticModel, Unit
from mirrorguard.checker.semantic.units import argument_for

_TRACKERS = frozenset({"tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager"})
_REPLICA_RUN = frozenset({"run", "experimental_run_v2", "call_for_each_replica"})


def creates_variable(site: CallSite, model: SemanticModel) -> bool:
    """``tf.Variable(...)``: one plain variable, wherever it is made."""
    return any(q in api.VARIABLE_CONSTRUCTORS for q in site.qualified)


EFFECT = Effect("MG105", creates_variable)


_REPLICAS_USE = "the replicas use: each replica updates the one plain variable"
_CHECKPOINT_TRACKS = "the strategy's checkpoint tracks beside its mirrored variables: it is not mirrored itself"


def _how_strategy_uses(site: CallSite, model: SemanticModel) -> str | None:
    """How the variable the call makes reaches the strategy: read in a replica
    function or handed to ``strategy.run(args=...)`` (also through a parameter
    of the file's own function: ``train_step(iterator, step_variable)`` that
    runs ``strategy.run(step_fn, args=(..., step))``), or tracked by a
    checkpoint; None when it does not."""
    tracked = site.is_inside(lambda outer: any(q in _TRACKERS for q in outer.qualified))
    replicas, tracked_later = _reaches(site.binding_unit, site.targets, model, set())
    if replicas:
        return _REPLICAS_USE
    return _CHECKPOINT_TRACKS if tracked or tracked_later else None


def _reaches(unit: Unit, names, model: SemanticModel, seen: set) -> tuple[bool, bool]:
    """(do the replicas use the object ``names`` hold in ``unit``, does a checkpoint track it)."""
    tracked = False
    for target in names:
        if (id(unit), target) in seen:
            continue
        seen.add((id(unit), target))
        for other in model.units_seeing(unit, target):
            if model.is_replica_function(other) and target in other.refs:
                return True, tracked
            for call in other.calls:
                if target not in call.arg_refs:
                    continue
                if any(q in _TRACKERS for q in call.qualified):
                    tracked = True
                func = call.node.func
                if call.method in _REPLICA_RUN and isinstance(func, ast.Attribute) and model.is_strategy(func.value):
                    return True, tracked
                for function in model.callees(call):
                    # train_step(iterator, step_variable): follow it into the parameter it is bound to
                    if not isinstance(function, Unit):
                        continue
                    params = [p for p in function.params
                              if isinstance(argument_for(call, function, p), ast.Name)
                              and argument_for(call, function, p).id == target]
                    replicas, tracked_there = _reaches(function, params, model, seen)
                    tracked = tracked or tracked_there
                    if replicas:
                        return True, tracked
    return False, tracked


def _layer_made_outside(site: CallSite, model: SemanticModel) -> bool:
    """A layer whose variables exist before the scope: loaded on construction
    (``hub.KerasLayer``), or called, built or adapted outside the scope."""
    if any(q in api.LAYERS_LOADED_ON_CONSTRUCTION for q in site.qualified):
        return True
    if len(site.targets) != 1:
        return False
    (name,) = site.targets
    adapted = any(q.rpartition(".")[2] in api.ADAPTED_WITH_VARIABLES for q in site.qualified)
    lookup = any(q.rpartition(".")[2] in api.LOOKUP_LAYERS for q in site.qualified)
    for call in site.unit.calls:
        if call.in_scope or call.order < site.order:
            continue
        if call.callee is not None and getattr(call.callee, "name", None) == name and not lookup:
            return True  # layer(x): built on its first call (a lookup layer's table is no variable)
        if call.receiver == name and (call.method == "build" or (call.method == "adapt" and adapted)):
            return True
    return False


def _used_in_scoped_model(site: CallSite, model: SemanticModel) -> bool:
    """Used as a layer inside a strategy scope (called, or handed to a model:
    not just asked ``vocabulary_size()``), or by a function called inside one
    (a model factory)."""
    for target in site.targets:
        for unit in model.units_seeing(site.binding_unit, target):
            in_scope = sum(1 for read in unit.reads_of(target) if read.in_scope)
            asked = sum(1 for call in unit.calls if call.in_scope and call.receiver == target)
            if in_scope > asked:
                return True
            if unit is not site.binding_unit and target in unit.refs and _called_in_scope(unit):
                return True
    return False


def _called_in_scope(unit: Unit) -> bool:
    return any(caller.in_scope for caller in unit.callers)


def _layers(context: Context) -> Iterator[CallSite]:
    model = context.model
    for root in model.roots:
        for site in root.calls:
            if site.in_scope or not site.targets:
                continue
            if not any(api.creates_layer(q) or q in api.LAYERS_LOADED_ON_CONSTRUCTION for q in site.qualified):
                continue
            if _layer_made_outside(site, model) and _used_in_scoped_model(site, model):
                yield site


def _functional_graph_layers(context: Context) -> Iterator[CallSite]:
    """``x = layers.Dense(64)(inputs)`` outside the scope, ``keras.Model(inputs, outputs)``
    inside it: calling a layer on a symbolic input builds it, so its weights
    were made outside. Yields the constructors of the layers with weights
    behind a model built inside a scope."""
    from mirrorguard.checker.rules import mg101_model_built_outside_strategy_scope as mg101

    model = context.model
    for root in model.roots:
        by_node = {id(site.node): site for site in root.calls}
        behind: dict[str, set[CallSite]] = {}  # graph tensor name -> weighted layers that produced it
        for site in root.calls:
            if site.in_scope:
                if behind and mg101.builds_model(site, model):
                    for name in site.arg_refs:
                        yield from behind.get(name, ())
                continue
            if not site.targets:
                continue
            upstream = set().union(*(behind.get(name, set()) for name in site.arg_refs)) if behind else set()
            applied = by_node.get(id(site.node.func)) if isinstance(site.node.func, ast.Call) else None
            if applied is not None and any(api.creates_layer(q) for q in applied.qualified):
                upstream.add(applied)
            if upstream:
                for target in site.targets:
                    behind[target] = upstream


def check(context: Context) -> Iterator[Report]:
    model = context.model
    scope = context.scope
    for exposure in model.unscoped(EFFECT.code):
        how = _how_strategy_uses(exposure.site, model)
        if how is not None:
            yield Report(exposure.site.node, context.outside_scope(
                exposure, "creates a variable", act="create it", act_via="create it", then=f" that {how}"))
    reported: set[int] = set()
    for site in [*_layers(context), *_functional_graph_layers(context)]:
        if id(site) in reported:
            continue
        reported.add(id(site))
        yield Report(site.node, (
            f"`{context.callee(site.node)}` creates a layer whose weights exist before `{scope}` "
            f"and a model built inside it uses them; create (and call, build or adapt) it inside `with {scope}:`"
        ))


RULE = Rule(
    code="MG105",
    name="variable-created-outside-strategy-scope",
    summary="Variable or layer weights created outside `strategy.scope()` and used by the strategy",
    fix=Fix.MOVE_INTO_SCOPE,
    check=check,
    effect=EFFECT,
    docs="""
    ## What it does
    Flags a `tf.Variable` created outside the strategy's scope and then used
    in a replica function (the function given to `strategy.run`, directly or
    through a `tf.function`), passed to `strategy.run(args=...)` (also
    through a parameter of the file's own function that does so), or tracked
    by a `tf.train.Checkpoint`; and a Keras layer whose weights are created
    outside the scope (called, `build()`-ed or, for `Normalization`,
    `adapt()`-ed there, or a `hub.KerasLayer`, which loads its weights when
    it is constructed) and then used by a model built inside, including a
    functional graph built outside (`x = layers.Dense(64)(inputs)`) whose
    model is made inside (`keras.Model(inputs, outputs)`): calling a layer on
    a symbolic input builds it. It is reported where the variable or layer is
    created (a `tf.Variable(...)` written inside a `tf.train.Checkpoint(...)`
    call counts as tracked by it). Weightless layers (`RandomFlip`,
    `Rescaling`...) and lookup layers may live outside.

    ## Why is this bad?
    The variable is an ordinary variable, not a `MirroredVariable`: every
    replica updates the same one. Measured (2 CPU replicas): a step counter
    created outside and `assign_add(1)`-ed in the replica function reads 8
    after 4 steps, silently, on Keras 3 and tf-keras. A `Dense` layer built
    outside and used in a model built inside fails `fit` on both flavours
    with errors that never say "outside the scope" (`colocate_vars_with must
    only be passed a variable created in this tf.distribute.Strategy.scope()`;
    `Variable ... was not created in the distribution strategy scope`).
    `Normalization().adapt(x)` outside fails on tf-keras and keeps
    unreplicated statistics on Keras 3.

    ## Example
    ```python
    step = tf.Variable(0, trainable=False)
    with strategy.scope():
        model = build_model()

    def train_step(batch):
        step.assign_add(1)
        ...

    strategy.run(train_step, args=(batch,))
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = build_model()
        step = tf.Variable(0, trainable=False)
    ```
    """,
    valid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            step = tf.Variable(0)
        def train_step(x):
            step.assign_add(1)
        strategy.run(train_step, args=(x,))
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        augment = tf.keras.layers.RandomFlip("horizontal")
        augment(images)
        with strategy.scope():
            model = tf.keras.Sequential([augment, tf.keras.layers.Dense(1)])
        """),
    ),
    invalid=(
        # Handed through the parameter of the file's tf.function to strategy.run(args=...)
        # (google/uncertainty-baselines cifar/sngp.py `train_step(iterator, step_variable)`).
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        @tf.function
        def train_step(iterator, step):
            def step_fn(inputs, step):
                return inputs * tf.cast(step, tf.float32)
            strategy.run(step_fn, args=(next(iterator), step))
        step_variable = tf.Variable(0)
        train_step(iterator, step_variable)
        """, lines=(8,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        @tf.function
        def train_step(iterator, step):
            def step_fn(inputs, step):
                return inputs * tf.cast(step, tf.float32)
            strategy.run(step_fn, args=(next(iterator), step))
        with strategy.scope():
            step_variable = tf.Variable(0)
        train_step(iterator, step_variable)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        step = tf.Variable(0)
        def train_step(x):
            step.assign_add(1)
        strategy.run(train_step, args=(x,))
        """, lines=(3,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            step = tf.Variable(0)
        def train_step(x):
            step.assign_add(1)
        strategy.run(train_step, args=(x,))
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        norm = tf.keras.layers.Normalization()
        norm.adapt(features)
        with strategy.scope():
            model = tf.keras.Sequential([norm, tf.keras.layers.Dense(1)])
        """, lines=(3,)),
    ),
)
