"""MG103 optimizer-or-metric-outside-strategy-scope."""

from __future__ import annotations

from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.analysis import OPTIMIZER
from mirrorguard.checker.rules.base import Case, Rule, Unit


def check(unit: Unit) -> Iterator[tuple]:
    for item in unit.analysis.outside_scope:
        if item.kind != OPTIMIZER:
            continue
        what = f"`{item.via}()`" if item.via else f"`{unit.callee(item.node)}`"
        kind = "a metric" if api.creates_metric(item.detail) else "an optimizer"
        if item.via:
            kind = "an optimizer or metric"
        yield item, (
            f"{what} creates {kind} outside `{unit.scope}` that the "
            f"strategy's model uses; create it inside `with {unit.scope}:`"
        )


RULE = Rule(
    code="MG103",
    name="optimizer-or-metric-outside-strategy-scope",
    summary="Optimizer or metric object created outside `strategy.scope()` and used with the strategy's model",
    fix="safe",
    check=check,
    docs="""
    ## What it does
    Flags optimizer objects (`keras.optimizers.*`, `LossScaleOptimizer`) and
    metric objects (`keras.metrics.*` classes) created outside the strategy's
    scope and then used by the model: passed to `compile()`, used inside the
    scope, assigned to `model.optimizer`, or used in a step function run by
    `strategy.run`. It is reported where the object is created. Strings
    (`"adam"`, `"accuracy"`) and loss objects hold no variables and are fine.

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
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        optimizer = tf.keras.optimizers.Adam(1e-3)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=optimizer, loss="mse")
        """, lines=(3,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        metrics = [tf.keras.metrics.AUC(), "accuracy"]
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse", metrics=metrics)
        """, lines=(3,)),
    ),
)
