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
from mirrorguard.checker.semantic.units import END_OF_UNIT, BindingKind

_REPLICA_RUN = frozenset({"run", "experimental_run_v2", "call_for_each_replica"})
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
                elif other.callee is not None and not model.effects_of(other) and _callee_trains(other, model):
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
    scope, assigned to `model.optimizer`, or used in a step function run by
    `strategy.run`. It is reported where the object is created. Strings
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
    objects`, and custom training loops update unmirrored state.

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
