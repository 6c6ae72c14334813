"""MG404 keras3-fit-under-multi-worker-strategy."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker.rules import _multiworker as mw
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite

_TRAINING = frozenset({"fit", "evaluate"})
_LEGACY_KERAS = "TF_USE_LEGACY_KERAS"


def uses_keras3(context: Context) -> bool:
    """Is this file's Keras Keras 3? ``import keras`` and TensorFlow's ``tf.keras`` are
    (TensorFlow 2.16 and later: a model a TensorFlow program gets from a helper
    module is one too), unless the file imports ``tf_keras`` or sets
    ``TF_USE_LEGACY_KERAS``; a file using ``tf.estimator`` (gone in 2.16) runs on an
    older TensorFlow, whose Keras is Keras 2."""
    def compute() -> bool:
        if mw.text_mentions(context, _LEGACY_KERAS):
            return False
        keras = False
        # Imports and `tf.keras` anywhere in the file, functions included.
        for node in ast.walk(context.model.module.node):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "tf_keras":
                        return False
                    keras = keras or alias.name.split(".")[0] in ("keras", "tensorflow")
            elif isinstance(node, ast.ImportFrom) and node.module:
                head = node.module.split(".")[0]
                if head == "tf_keras":
                    return False
                keras = keras or head in ("keras", "tensorflow")
            elif isinstance(node, ast.Attribute) and node.attr == "estimator" and isinstance(node.value, ast.Name) \
                    and "tensorflow" in context.model.qualify(node.value):
                return False
        return keras

    return context.memo("mg4xx keras3", compute)


def _trains_keras_model(site: CallSite, context: Context) -> bool:
    if site.method not in _TRAINING or site.qualified or site.receiver is None:
        return False
    if context.model.callees(site):
        return False  # the file's own trainer class's fit
    if any(k.arg in mw.KERAS_FIT_KEYWORDS for k in site.node.keywords):
        return True
    return site.receiver in mw.model_receivers(context) or site.receiver == "self.model"


def check(context: Context) -> Iterator[Report]:
    kinds = [kind for kind in (mw.MWMS, mw.PSS) if mw.makes(context, kind)]
    if not kinds or not uses_keras3(context):
        return
    judged = {id(u) for u in context.model.strategy_code()}
    strategy = " or ".join(kinds)
    for unit in context.model.units:
        if id(unit) not in judged:
            continue
        for site in unit.calls:
            if site.single_device or not _trains_keras_model(site, context):
                continue
            if context.model.trained_before_the_strategy(site):
                continue  # trained to the end before the strategy exists: never under it
            yield Report(site.node, (
                f"`{context.code(site.node.func)}()` under {strategy} fails on Keras 3 "
                "(keras-team/keras#20585); train with tf-keras (`pip install tf-keras`, `TF_USE_LEGACY_KERAS=1` "
                "before TensorFlow is imported) or write a custom loop with `strategy.run`"
            ))


RULE = Rule(
    code="MG404",
    name="keras3-fit-under-multi-worker-strategy",
    summary="Keras 3 `fit()`/`evaluate()` under MultiWorkerMirroredStrategy or ParameterServerStrategy",
    check=check,
    docs="""
    ## What it does
    In a program that makes a `MultiWorkerMirroredStrategy` or a `ParameterServerStrategy`
    and uses Keras 3, flags `model.fit()` and `model.evaluate()` of a Keras model (one the
    file compiles, builds, or calls with Keras's own keywords such as `epochs=`).

    The file's Keras is Keras 3 when it imports `keras` or TensorFlow (`tf.keras` is
    Keras 3 since TensorFlow 2.16), unless it imports `tf_keras`, mentions
    `TF_USE_LEGACY_KERAS`, or uses `tf.estimator` (gone in 2.16: the file runs on an
    older TensorFlow whose Keras is Keras 2). A legacy setting made outside the file (a
    shell, a Dockerfile) is invisible here: add `os.environ["TF_USE_LEGACY_KERAS"] = "1"`
    before importing TensorFlow, which also makes the program say what it needs.

    ## Why is this bad?
    Keras 3 cannot train or evaluate with `fit()`/`evaluate()` under these strategies
    (keras-team/keras#20585, open): measured with TensorFlow 2.21 and Keras 3.15, `fit()`
    fails by itself with a `ValueError` about per-replica values that never says why. Two
    ways work: tf-keras (`pip install tf-keras`, `TF_USE_LEGACY_KERAS=1` set before
    TensorFlow is imported), or a custom training loop with `strategy.run`.

    ## Example
    ```python
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = build_and_compile_cnn_model()
    model.fit(dataset, epochs=3, steps_per_epoch=70)
    ```

    ## Use instead
    ```python
    import os
    os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf-keras: pip install tf-keras
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = build_and_compile_cnn_model()
    model.fit(dataset, epochs=3, steps_per_epoch=70)
    ```

    ## References
    - https://github.com/keras-team/keras/issues/20585
    - https://www.tensorflow.org/tutorials/distribute/multi_worker_with_ctl
    """,
    valid=(
        Case("""
        import os
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=3)
        """),
        Case("""
        import tensorflow as tf
        import tf_keras
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = tf_keras.Sequential([tf_keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        model.fit(dataset, epochs=3)
        """),
        Case("""
        import keras
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = keras.Sequential([keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        model.fit(dataset, epochs=3)
        """),
        Case("""
        import tensorflow as tf
        from sklearn.linear_model import LogisticRegression
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        probe = LogisticRegression()
        probe.fit(features, labels)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        with strategy.scope():
            multi_worker_model = mnist_setup.build_and_compile_cnn_model()
        multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=70)
        """, lines=(5,)),
        Case("""
        import keras
        import tensorflow as tf
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        strategy = tf.distribute.ParameterServerStrategy(resolver)
        with strategy.scope():
            model = keras.Sequential([keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse", steps_per_execution=10)
        model.fit(dataset_creator, epochs=5, steps_per_epoch=20)
        model.evaluate(eval_dataset)
        """, lines=(8, 9)),
    ),
)
