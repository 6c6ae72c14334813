"""MG403 multi-worker-strategy-after-tensorflow-ops."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules import _multiworker as mw
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite, Unit
from mirrorguard.checker.semantic.units import own_nodes

# TensorFlow calls that leave the runtime uninitialised (measured with TensorFlow 2.21:
# the eager context has no handle after them): configuration, seeds, definitions.
_PURE_PREFIXES = (
    "tensorflow.config.", "tensorflow.distribute.", "tensorflow.autograph.", "tensorflow.io.gfile.",
    "tensorflow.logging.", "tensorflow.sysconfig.", "tensorflow.feature_column.", "tensorflow.dtypes.",
    "tensorflow.estimator.", "tensorflow.nest.", "tensorflow.data.experimental.AutoShardPolicy",
    "tensorflow.python.client.device_lib.",
)
_PURE = frozenset({
    "tensorflow.random.set_seed", "tensorflow.get_logger", "tensorflow.function", "tensorflow.TensorSpec",
    "tensorflow.TensorShape", "tensorflow.as_dtype", "tensorflow.data.Options", "tensorflow.executing_eagerly",
    "tensorflow.debugging.set_log_device_placement", "tensorflow.test.is_built_with_cuda",
    "tensorflow.test.is_built_with_gpu_support", "tensorflow.test.is_gpu_available",
    "tensorflow.disable_eager_execution",
    "tensorflow.enable_eager_execution", "tensorflow.train.Checkpoint", "tensorflow.train.latest_checkpoint",
    "tensorflow.experimental.numpy.experimental_enable_numpy_behavior", "tensorflow.py_function",
    "tensorflow.numpy_function",
})
# tf.config calls that do start the runtime.
_STARTING_CONFIG = frozenset({
    "tensorflow.config.list_logical_devices", "tensorflow.config.experimental.list_logical_devices",
    "tensorflow.config.experimental.get_memory_info", "tensorflow.config.experimental.get_memory_usage",
    "tensorflow.config.experimental.reset_memory_stats",
})
# Calls that reset TensorFlow's runtime: what ran before them no longer counts
# (tensorflow/ecosystem's Spark runner resets a reused worker before its strategy).
_RESETS = frozenset({"tensorflow.python.eager.context._reset_context"})
_KERAS_DATASETS = api.DATASET_FROM_DIRECTORY
_OTHER_OPS = ("tensorflow_datasets.load", "tensorflow_hub.load", "tensorflow_hub.KerasLayer")


def resets_runtime(site: CallSite) -> bool:
    """``context._reset_context()`` (tensorflow.python.eager.context): a fresh runtime."""
    return any(name in _RESETS for name in site.qualified)


def runs_ops(site: CallSite) -> bool:
    """Does this call start TensorFlow's runtime: run an op, make a tensor, a
    variable, a dataset, a Keras model or optimizer?"""
    if resets_runtime(site):
        return False
    for name in site.qualified:
        if name in _STARTING_CONFIG:
            return True
        if name.startswith("tensorflow."):
            if api.strategy_class(name) or name in _PURE or name.startswith(_PURE_PREFIXES):
                continue
            return True
        if name.startswith("keras."):
            if (api.builds_model(name) or api.loads_model(name) or api.creates_optimizer(name)
                    or api.creates_metric(name) or name in _KERAS_DATASETS or name.startswith("keras.ops.")):
                return True
        if name.startswith(_OTHER_OPS):
            return True
    return False


def _removes_tf_config(context: Context) -> bool:
    """``os.environ.pop("TF_CONFIG", None)`` / ``del os.environ["TF_CONFIG"]``: this process
    runs the strategy as a single worker on purpose (tensorflow/docs' notebook does)."""
    if not mw.text_mentions(context, mw.TF_CONFIG):
        return False
    model = context.model
    for unit in model.units:
        for site in unit.calls:
            if "os.environ.pop" in site.qualified and site.node.args and \
                    mw.constant_string(site.node.args[0]) == mw.TF_CONFIG:
                return True
        for node in own_nodes(unit):
            if isinstance(node, ast.Delete) and any(
                    isinstance(t, ast.Subscript) and "os.environ" in model.qualify(t.value)
                    and mw.constant_string(t.slice) == mw.TF_CONFIG for t in node.targets):
                return True
    return False


def check(context: Context) -> Iterator[Report]:
    if not mw.makes(context, mw.MWMS) or _removes_tf_config(context):
        return
    model = context.model

    def events(unit: Unit) -> list[mw.Event]:
        found = []
        for site in unit.calls:
            if mw.strategy_class_of(site) == mw.MWMS:
                found.append(mw.Event("strategy", site.node, unit))
            elif resets_runtime(site):
                found.append(mw.Event("reset", site.node, unit))
            elif runs_ops(site):
                found.append(mw.Event("op", site.node, unit))
        return found

    for step, first_op in mw.Timeline(model, events).meetings("op", "strategy", cleared_by="reset"):
        op = first_op.event.node
        what = f"`{step.via}()` creates `MultiWorkerMirroredStrategy`" if step.via else \
            f"`{context.callee(step.event.node)}` is created"
        ran = f"`{first_op.via}()`" if first_op.via else f"`{context.callee(op)}`"
        yield Report(step.at, (
            f"{what} after {ran} (line {op.lineno}) started TensorFlow, and multi-worker training then "
            "fails with \"Collective ops must be configured at program startup\"; create the strategy "
            "first, before any tensor, dataset or model"
        ))


RULE = Rule(
    code="MG403",
    name="multi-worker-strategy-after-tensorflow-ops",
    summary="MultiWorkerMirroredStrategy created after TensorFlow already ran operations",
    check=check,
    docs="""
    ## What it does
    Flags a `MultiWorkerMirroredStrategy` (any spelling) that the program creates after a
    call that starts TensorFlow's runtime, in program order (the module top to bottom, a
    notebook's cells in order, a helper where it is called): a tensor (`tf.constant`,
    `tf.zeros`, any TensorFlow op), a variable, a `tf.data` dataset, a Keras model,
    optimizer or metric, `tf.config.list_logical_devices()`, `tfds.load`.

    Calls that only configure are not ops (measured with TensorFlow 2.21: the runtime is
    still unstarted after them): `tf.config.*` (`list_physical_devices`,
    `set_visible_devices`, `set_memory_growth`, threading), `tf.random.set_seed`,
    `keras.utils.set_random_seed`, `tf.data.Options()`, `tf.function` (until called),
    `TFConfigClusterResolver`, `tf.distribute.experimental.CommunicationOptions`, Keras's
    dataset downloads (`keras.datasets.mnist.load_data()`, NumPy only).

    `context._reset_context()` (`tensorflow.python.eager.context`) resets the
    runtime: the ops before it do not count for a strategy made after it, when the
    reset runs whenever they did (not only in one branch of an `if`).

    A program that removes `TF_CONFIG` first (`os.environ.pop("TF_CONFIG", None)`) runs
    the strategy as a single worker on purpose, where TensorFlow only warns: not flagged.

    ## Why is this bad?
    With a cluster in `TF_CONFIG`, the strategy must configure collective ops before
    TensorFlow's runtime starts. Created afterwards, its constructor raises
    `RuntimeError: Collective ops must be configured at program startup` on every worker.

    ## Example
    ```python
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    ```

    ## References
    - https://www.tensorflow.org/api_docs/python/tf/distribute/MultiWorkerMirroredStrategy
    - https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras#choose_the_right_strategy
    """,
    valid=(
        Case("""
        import tensorflow as tf
        gpus = tf.config.list_physical_devices("GPU")
        for gpu in gpus:
            tf.config.experimental.set_memory_growth(gpu, True)
        tf.random.set_seed(0)
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
        """),
        Case("""
        import os
        import tensorflow as tf
        os.environ.pop("TF_CONFIG", None)  # this notebook trains as one worker
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        """),
        Case("""
        import tensorflow as tf
        x = tf.constant([1.0])
        strategy = tf.distribute.MirroredStrategy()  # one process: nothing to configure
        """),
        Case("""
        import tensorflow as tf
        # tf_keras's distributed_training_utils.get_distribution_strategy: one branch runs.
        if kind == "tpu":
            resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=address)
            tf.tpu.experimental.initialize_tpu_system(resolver)
            strategy = tf.distribute.TPUStrategy(resolver)
        elif kind == "multi_worker_mirrored":
            strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
        """),
        # tensorflow/ecosystem spark-tensorflow-distributor mirrored_strategy_runner.py: a reused
        # Python worker that ran TensorFlow before resets the eager context, then makes the strategy.
        Case("""
        import tensorflow as tf
        from tensorflow.python.eager import context
        warmup = tf.constant([1.0])
        def run_tensorflow_program(train_fn):
            context._reset_context()
            strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
            with strategy.scope():
                return train_fn()
        run_tensorflow_program(lambda: None)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        """, lines=(3,)),
        # The reset only in one branch: on the other path the ops still started the runtime.
        Case("""
        import tensorflow as tf
        from tensorflow.python.eager import context
        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
        if fresh:
            context._reset_context()
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        """, lines=(6,)),
        # Ops after the reset start the new runtime.
        Case("""
        import tensorflow as tf
        from tensorflow.python.eager import context
        context._reset_context()
        x = tf.constant([1.0])
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        """, lines=(5,)),
        Case("""
        import tensorflow as tf

        def make_strategy():
            return tf.distribute.experimental.MultiWorkerMirroredStrategy()

        def main():
            print(tf.config.list_logical_devices())
            strategy = make_strategy()

        main()
        """, lines=(8,)),
    ),
)
