"""MG106 tuner-without-distribution-strategy."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite, SemanticModel


def _tuner_classes(model: SemanticModel) -> set[str]:
    """The file's own subclasses of Keras Tuner's tuners, transitively."""
    return model.subclasses(api.TUNERS)


def builds_tuner(site: CallSite, model: SemanticModel, own: set[str]) -> bool:
    if any(q in api.TUNERS for q in site.qualified):
        return True
    func = site.node.func
    return isinstance(func, ast.Name) and not site.qualified and func.id in own


def _hypermodel_enters_scope(site: CallSite, model: SemanticModel) -> bool:
    """``RandomSearch(partial(build_with_strategy, ...))`` where the file's own
    builder enters ``strategy.scope()`` itself: every trial is built in a scope."""
    hypermodel = site.node.args[0] if site.node.args else getattr(site.keyword("hypermodel"), "value", None)
    if isinstance(hypermodel, ast.Call) and "functools.partial" in model.qualify(hypermodel.func) and hypermodel.args:
        hypermodel = hypermodel.args[0]
    if not isinstance(hypermodel, ast.Name):
        return False
    function = model.function(hypermodel.id, site.unit)
    return function is not None and function.owns_strategy


def _subclass_passes_strategy(site: CallSite, model: SemanticModel, own: set[str]) -> bool:
    """``DistributedHyperband(build, strategy)`` whose ``__init__`` hands
    ``distribution_strategy=`` to the tuner it extends."""
    func = site.node.func
    if not (isinstance(func, ast.Name) and func.id in own):
        return False
    init = model.method(func.id, "__init__")
    return init is not None and any(call.keyword("distribution_strategy") is not None for call in init.calls)


def check(context: Context) -> Iterator[Report]:
    model = context.model
    own = _tuner_classes(model)
    strategy = model.strategy_name
    for unit in model.units:
        if unit.class_name in own:
            continue  # a tuner subclass's own code (super().__init__(...)) is judged where it is built
        if not model.sees_strategy(unit):
            continue  # TFX's tuner_fn beside a run_fn that makes its own strategy: none reaches it
        for site in unit.calls:
            if not builds_tuner(site, model, own) or site.single_device:
                continue
            if site.keyword("distribution_strategy") is not None or any(k.arg is None for k in site.node.keywords):
                continue
            if _hypermodel_enters_scope(site, model) or _subclass_passes_strategy(site, model, own):
                continue
            yield Report(site.node, (
                f"`{context.callee(site.node)}` builds every trial's model outside any strategy scope; "
                f"pass `distribution_strategy={strategy}`"
            ))


RULE = Rule(
    code="MG106",
    name="tuner-without-distribution-strategy",
    summary="Keras Tuner tuner built without `distribution_strategy=` while a strategy is in play",
    check=check,
    docs="""
    ## What it does
    In a file with a `tf.distribute` strategy in play, flags a Keras Tuner
    tuner (`RandomSearch`, `Hyperband`, `BayesianOptimization`, `GridSearch`,
    or the file's own subclass of `Tuner` or of one of those) constructed
    without `distribution_strategy=`, where a strategy reaches: in the
    module or a function that makes, enters, takes or reads one, or in a
    function that such code calls. A tuner in a function no strategy reaches
    (TFX's `tuner_fn` beside a `run_fn` that makes its own strategy) is not
    judged.

    ## Why is this bad?
    `tuner.search()` calls your `build(hp)` for every trial itself. Without
    `distribution_strategy=` it does so outside any scope, even when the tuner
    object is created inside `with strategy.scope():`: every trial trains on
    one replica (or fails as a model built outside the scope does, see MG101).
    With `distribution_strategy=strategy` the tuner enters the scope around
    each trial's build.

    ## Example
    ```python
    strategy = tf.distribute.MirroredStrategy()
    tuner = keras_tuner.RandomSearch(build_model, objective="val_accuracy", max_trials=10)
    tuner.search(train_ds, validation_data=val_ds, epochs=5)
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.MirroredStrategy()
    tuner = keras_tuner.RandomSearch(
        build_model, objective="val_accuracy", max_trials=10, distribution_strategy=strategy
    )
    tuner.search(train_ds, validation_data=val_ds, epochs=5)
    ```

    ## References
    - https://keras.io/guides/keras_tuner/distributed_tuning/
    """,
    valid=(
        # Issue 17: TFX's tuner_fn beside a run_fn that makes its own strategy: none reaches
        # the tuner (tensorflow/tfx penguin_utils_keras.py).
        Case("""
        import keras_tuner
        import tensorflow as tf
        def tuner_fn(fn_args):
            tuner = keras_tuner.RandomSearch(build_model, max_trials=6, objective="val_accuracy")
            return TunerFnResult(tuner=tuner, fit_kwargs={})
        def run_fn(fn_args):
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                model = build_model(hparams)
            model.fit(ds)
        """),
        # A module name that reads like a strategy but holds a flag's value is not one.
        Case("""
        import keras_tuner
        import tensorflow as tf
        distribution_strategy = "mirrored"
        def tuner_fn(fn_args):
            tuner = keras_tuner.RandomSearch(build_model, max_trials=6, objective="val_accuracy")
            return TunerFnResult(tuner=tuner, fit_kwargs={})
        def run_fn(fn_args):
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                model = build_model(hparams)
            model.fit(ds)
        """),
        Case("""
        import keras_tuner
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        tuner = keras_tuner.Hyperband(build_model, objective="val_loss", distribution_strategy=strategy)
        """),
        Case("""
        import keras_tuner as kt
        tuner = kt.RandomSearch(build_model, objective="val_loss")  # no strategy in play
        """),
    ),
    invalid=(
        # A helper that a function with the strategy calls: the strategy reaches it.
        Case("""
        import keras_tuner as kt
        import tensorflow as tf
        def make_tuner():
            return kt.RandomSearch(build_model, objective="val_loss", max_trials=3)
        def main():
            strategy = tf.distribute.MirroredStrategy()
            tuner = make_tuner()
            tuner.search(x, y, epochs=1)
        main()
        """, lines=(4,)),
        Case("""
        import keras_tuner as kt
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            tuner = kt.RandomSearch(build_model, objective="val_accuracy", max_trials=3)
        tuner.search(x, y, epochs=2)
        """, lines=(5,)),
        Case("""
        from kerastuner.tuners import BayesianOptimization
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        tuner = BayesianOptimization(build_model, objective="val_loss", max_trials=5)
        """, lines=(4,)),
    ),
)
