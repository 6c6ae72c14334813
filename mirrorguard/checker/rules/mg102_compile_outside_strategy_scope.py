"""MG102 compile-outside-strategy-scope."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules import mg101_model_built_outside_strategy_scope as mg101
from mirrorguard.checker.rules import mg104_model_loaded_outside_strategy_scope as mg104
from mirrorguard.checker.rules.base import Case, Context, Fix, Report, Rule
from mirrorguard.checker.semantic import CallSite, Effect, SemanticModel

_MODEL_MAKERS = frozenset({mg101.EFFECT.code, mg104.EFFECT.code})


def compiles_model(site: CallSite, model: SemanticModel) -> bool:
    """``model.compile(...)``, told apart from ``re.compile`` and friends."""
    if site.method != "compile" or site.qualified:
        return False
    node = site.node
    for keyword in node.keywords:
        # Keras's own keywords, and custom compile()s: d_optimizer=, loss_fn=.
        if keyword.arg is not None and (
            keyword.arg in api.COMPILE_KEYWORDS or keyword.arg.endswith(("optimizer", "loss", "loss_fn"))
        ):
            return True
    receiver = site.receiver
    if receiver is not None and receiver in model.names_bound_by(_MODEL_MAKERS):
        return True
    positional = site.positional()
    if positional:
        first = positional[0]
        if (isinstance(first, ast.Constant) and isinstance(first.value, str)
                and first.value.lower() in api.OPTIMIZER_NAMES):
            return True
        if isinstance(first, ast.Call) and any(api.creates_optimizer(q) for q in model.qualify(first.func)):
            return True
    if receiver is None:
        return False
    lowered = receiver.lower()
    return "model" in lowered or "net" in lowered or lowered.endswith(("classifier", "regressor"))


EFFECT = Effect("MG102", compiles_model, works_on_model=True)


def compiles_in_own_scope(site: CallSite, model: SemanticModel) -> bool:
    """``net.compile(...)`` on an instance of the file's class whose ``compile()``
    enters the strategy's scope itself (``self.compile(...)`` in its methods too)."""
    receiver = site.receiver
    if receiver is None:
        return False
    class_name = site.unit.class_name if receiver == "self" else model.instance_class(receiver)
    return model.method_enters_scope(class_name, "compile")


def compiles_unreplicated_model(site: CallSite, model: SemanticModel) -> bool:
    """A compile of a model deliberately kept out of the strategy (see MG101)."""
    return site.receiver is not None and model.holds_unreplicated(site.unit, site.receiver, site.order)


def check(context: Context) -> Iterator[Report]:
    for exposure in context.model.unscoped(EFFECT.code):
        site = exposure.site
        if exposure.via:
            if exposure.codes & _MODEL_MAKERS and context.model.kept_unreplicated(site):
                continue  # a factory that builds and compiles a copy kept out on purpose (see MG101)
            yield Report(site.node, context.outside_scope(exposure, "calls `compile()`", act="call it"))
        elif compiles_in_own_scope(site, context.model):
            continue  # net.compile(...) whose class's compile() enters `self.strategy.scope()` itself
        elif not compiles_unreplicated_model(site, context.model):
            yield Report(site.node, context.outside_scope(exposure, "is called", act="compile",
                                                          subject=f"`{context.code(site.node.func)}()`"))


RULE = Rule(
    code="MG102",
    name="compile-outside-strategy-scope",
    summary="`model.compile()` called outside `strategy.scope()`",
    fix=Fix.MOVE_INTO_SCOPE,
    check=check,
    effect=EFFECT,
    docs="""
    ## What it does
    Flags `model.compile(...)` that does not run inside the strategy's scope,
    directly or through one of the file's own functions called outside a scope.
    A model kept out of the strategy on purpose (only evaluated or used to
    predict) may be compiled outside, and so may a model on a branch no
    strategy reaches (the `else:` of `if FLAGS.use_tpu: strategy = ...`). A
    `compile()` of the file's model class that enters
    `self.strategy.scope()` itself is inside the scope.

    ## Why is this bad?
    `compile()` creates the optimizer's and the metrics' variables. In Keras 3
    a model built inside the scope and compiled outside fails at `fit()` with
    `RuntimeError: Mixing different tf.distribute.Strategy objects`, even with
    `optimizer="adam"`. tf-keras accepts it, so code that works there breaks on
    upgrade.

    ## Example
    ```python
    with strategy.scope():
        model = build_model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = build_model()
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    ```
    """,
    valid=(
        # Issue 17: the `else:` of `if FLAGS.use_tpu:` that makes no strategy is single-device code.
        Case("""
        import tensorflow as tf
        if FLAGS.use_tpu:
            strategy = tf.distribute.TPUStrategy(resolver)
            with strategy.scope():
                model = build_model()
                model.compile(optimizer="adam", loss="mse")
        else:
            model = build_model()
            model.compile(optimizer="adam", loss="mse")
        """),
        # The model class's compile() enters `self.strategy.scope()` itself.
        Case("""
        import keras
        import tensorflow as tf
        class Net(keras.Model):
            def __init__(self, strategy):
                with strategy.scope():
                    super().__init__()
                    self.strategy = strategy
                    self.dense = keras.layers.Dense(1)
            def compile(self, **kwargs):
                with self.strategy.scope():
                    super().compile(**kwargs)
        strategy = tf.distribute.MirroredStrategy()
        net = Net(strategy)
        net.compile(optimizer="adam", loss="mse")
        """),
        Case("""
        import re
        strategy = tf.distribute.MirroredStrategy()
        pattern = re.compile("x")
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        """, lines=(5,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        """),
        Case("""
        import tensorflow as tf
        def unfreeze(model):
            model.trainable = True
            model.compile(optimizer=tf.keras.optimizers.Adam(1e-5), loss="mse")
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        unfreeze(model)
        """, lines=(9,), fixed="""
        import tensorflow as tf
        def unfreeze(model):
            model.trainable = True
            model.compile(optimizer=tf.keras.optimizers.Adam(1e-5), loss="mse")
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
            unfreeze(model)
        """),
    ),
)
