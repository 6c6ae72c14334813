"""MG102 compile-outside-strategy-scope."""

from __future__ import annotations

from typing import Iterator

from mirrorguard.checker.analysis import COMPILE
from mirrorguard.checker.rules.base import Case, Rule, Unit


def check(unit: Unit) -> Iterator[tuple]:
    for item in unit.analysis.outside_scope:
        if item.kind != COMPILE:
            continue
        if item.via:
            yield item, (
                f"`{item.via}()` calls `compile()` outside `{unit.scope}`; "
                f"call it inside `with {unit.scope}:`"
            )
        else:
            yield item, (
                f"`{unit.code(item.node.func)}()` is called outside `{unit.scope}`; "
                f"compile inside `with {unit.scope}:`"
            )


RULE = Rule(
    code="MG102",
    name="compile-outside-strategy-scope",
    summary="`model.compile()` called outside `strategy.scope()`",
    fix="safe",
    check=check,
    docs="""
    ## What it does
    Flags `model.compile(...)` that does not run inside the strategy's scope,
    directly or through one of the file's own functions called outside a scope.
    A model kept out of the strategy on purpose (only evaluated or used to
    predict) may be compiled outside.

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
        """, lines=(5,)),
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
        """, lines=(9,)),
    ),
)
