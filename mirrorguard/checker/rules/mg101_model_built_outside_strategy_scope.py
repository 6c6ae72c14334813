"""MG101 model-built-outside-strategy-scope."""

from __future__ import annotations

from typing import Iterator

from mirrorguard.checker.analysis import BUILD
from mirrorguard.checker.rules.base import Case, Rule, Unit


def check(unit: Unit) -> Iterator[tuple]:
    for item in unit.analysis.outside_scope:
        if item.kind != BUILD:
            continue
        if item.via:
            yield item, (
                f"`{item.via}()` builds a Keras model outside `{unit.scope}`; "
                f"call it inside `with {unit.scope}:`"
            )
        else:
            yield item, (
                f"`{unit.callee(item.node)}` builds a Keras model outside `{unit.scope}`; "
                f"build it inside `with {unit.scope}:`"
            )


RULE = Rule(
    code="MG101",
    name="model-built-outside-strategy-scope",
    summary="Keras model built outside `strategy.scope()`",
    fix="safe",
    check=check,
    docs="""
    ## What it does
    Flags Keras model construction that does not run inside the scope of the
    file's `tf.distribute` strategy: `Sequential(...)`, functional
    `Model(inputs, outputs)`, `keras.applications.*` networks, instances of
    `keras.Model` subclasses defined in the file, and calls of the file's own
    functions that build a model without entering a scope themselves (reported
    at the call). A model built before the strategy is created counts too.

    A model bound to a name that is only evaluated, used to predict or saved
    (never trained, never handed on), beside a model built inside the scope,
    is left alone: keeping an unreplicated copy for comparison is deliberate.

    ## Why is this bad?
    The model's variables become plain variables on one device instead of
    `MirroredVariable`s. With everything outside the scope, training runs
    silently on one replica. With only `compile()` inside, Keras 3 fails at
    `fit()` with `RuntimeError: Need to be inside "with strategy.scope()"` and
    tf-keras at `compile()` with `ValueError: Variable (...) was not created in
    the distribution strategy scope`. A backbone built outside and wrapped by a
    model built inside fails with `colocate_vars_with must only be passed a
    variable created in this tf.distribute.Strategy.scope()`.

    ## Example
    ```python
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        model.compile(optimizer="adam", loss="mse")
    ```

    ## References
    - https://www.tensorflow.org/guide/distributed_training#use_tfdistributestrategy_with_keras_modelfit
    """,
    valid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        """),
        Case("""
        import tensorflow as tf
        def build():
            return tf.keras.Sequential([tf.keras.layers.Dense(1)])
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build()
        """),
        Case("""
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # no strategy in play
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            replicated = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        with tf.init_scope():
            unreplicated = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        unreplicated.evaluate(ds)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        with strategy.scope():
            model.compile(optimizer="adam", loss="mse")
        """, lines=(3,)),
        Case("""
        import tensorflow as tf
        from tensorflow import keras
        def build():
            return keras.Sequential([keras.layers.Dense(1)])
        strategy = tf.distribute.MirroredStrategy()
        model = build()
        model.fit(ds)
        """, lines=(6,)),
        Case("""
        import keras
        from tensorflow.distribute import MirroredStrategy as MS
        class Net(keras.Model):
            pass
        strategy = MS()
        net = Net()
        with strategy.scope():
            net.compile(optimizer="adam", loss="mse")
        """, lines=(6,)),
    ),
)
