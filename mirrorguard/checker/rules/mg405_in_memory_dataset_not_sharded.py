"""MG405 in-memory-dataset-not-sharded (off by default)."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker.rules import _multiworker as mw
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite, Unit
from mirrorguard.checker.semantic.units import own_nodes

_IN_MEMORY = frozenset({"tensorflow.data.Dataset.from_tensor_slices", "tensorflow.data.Dataset.from_tensors"})
# A pipeline that shards itself, sets its own policy, or reads files (which AUTO shards by file).
_HANDLED_METHODS = frozenset({"shard", "with_options", "interleave", "flat_map", "parallel_interleave"})
_DISTRIBUTING = frozenset({"experimental_distribute_dataset"})
_TRAINING = frozenset({"fit", "evaluate"})

MEMORY, HANDLED, UNKNOWN = "memory", "handled", "unknown"


def _source(node: ast.AST | None, unit: Unit, context: Context, depth: int = 0) -> str:
    """Where a dataset comes from: in-memory tensors with nothing that shards it
    (MEMORY), a pipeline that shards, sets options or reads files (HANDLED), or
    something this walk cannot follow (UNKNOWN)."""
    if node is None or depth > 8:
        return UNKNOWN
    model = context.model
    if isinstance(node, ast.Call):
        qualified = model.qualify(node.func)
        if any(q in _IN_MEMORY for q in qualified):
            first = node.args[0] if node.args else None
            # from_tensor_slices(["a.tfrecord", ...]): file names, read by a later interleave
            if isinstance(first, (ast.List, ast.Tuple)) and any(mw.constant_string(e) for e in first.elts):
                return UNKNOWN
            return MEMORY
        if qualified:
            return UNKNOWN
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in _HANDLED_METHODS:
                return HANDLED
            return _source(func.value, unit, context, depth + 1)
        site = mw.site_of(unit, node)
        targets = [t for t in model.callees(site) if isinstance(t, Unit)] if site is not None else []
        results = [_returned(t, context, depth + 1) for t in targets]
        return results[0] if results and all(r == results[0] for r in results) else UNKNOWN
    if isinstance(node, ast.Name):
        current: Unit | None = unit
        while current is not None and node.id not in current.bindings:
            current = current.parent
        if current is None:
            return UNKNOWN
        values = [b.value for b in current.bindings[node.id]]
        if any(v is None for v in values):
            return UNKNOWN
        results = {_source(v, current, context, depth + 1) for v in values}
        if HANDLED in results:
            return HANDLED  # shard() on one of its bindings: judged as sharded
        return MEMORY if results == {MEMORY} else UNKNOWN
    return UNKNOWN


def _returned(function: Unit, context: Context, depth: int) -> str:
    results = {_source(node.value, function, context, depth) for node in own_nodes(function)
               if isinstance(node, ast.Return) and node.value is not None}
    if HANDLED in results:
        return HANDLED
    return MEMORY if results == {MEMORY} else UNKNOWN


def _handed_dataset(site: CallSite, context: Context) -> ast.expr | None:
    """The dataset a call hands to the multi-worker strategy: ``fit(ds)``,
    ``strategy.experimental_distribute_dataset(ds)``."""
    method = site.method
    if method in _DISTRIBUTING and context.model.is_strategy(site.node.func.value):
        return site.node.args[0] if site.node.args else getattr(site.keyword("dataset"), "value", None)
    if method in _TRAINING and not site.qualified and not context.model.callees(site) and (
            site.receiver in mw.model_receivers(context) or site.receiver == "self.model"):
        return site.node.args[0] if site.node.args else getattr(site.keyword("x"), "value", None)
    return None


def check(context: Context) -> Iterator[Report]:
    if not mw.makes(context, mw.MWMS):
        return
    judged = {id(u) for u in context.model.strategy_code()}
    for unit in context.model.units:
        if id(unit) not in judged:
            continue
        for site in unit.calls:
            if site.single_device:
                continue
            dataset = _handed_dataset(site, context)
            if dataset is None or _source(dataset, unit, context) != MEMORY:
                continue
            yield Report(site.node, (
                f"`{context.code(dataset)}` is built from in-memory tensors and reaches "
                "MultiWorkerMirroredStrategy unsharded, so every worker builds all of it and keeps 1/N; "
                "shard it per worker (`.shard(num_workers, task_id)`) or set "
                "`options.experimental_distribute.auto_shard_policy`"
            ))


RULE = Rule(
    code="MG405",
    name="in-memory-dataset-not-sharded",
    summary="In-memory dataset handed to MultiWorkerMirroredStrategy without `shard()` or an auto-shard policy",
    check=check,
    default_enabled=False,
    docs="""
    ## What it does
    Off by default (`extend-select = ["MG405"]` turns it on). In a program that makes a
    `MultiWorkerMirroredStrategy`, flags a `tf.data` dataset handed to the strategy
    (`model.fit(ds)`, `model.evaluate(ds)`, `strategy.experimental_distribute_dataset(ds)`)
    whose source is in memory (`Dataset.from_tensor_slices`/`from_tensors` of arrays) and
    whose pipeline never calls `shard()`, never sets options (`with_options`), and reads
    no files (`interleave`, `flat_map`). The pipeline is followed through variables and
    the file's own functions; `distribute_datasets_from_function` is not judged (its
    function shards with its `InputContext`).

    It is off by default because TensorFlow's own multi-worker tutorial trains this way
    and gets correct results: the cost is wasted input work and a warning, not a wrong model.

    ## Why is this bad?
    The strategy auto-shards datasets with the `AUTO` policy: by file when the pipeline
    reads files, otherwise by data. An in-memory dataset has no files, so TensorFlow logs
    that it falls back to `DATA` sharding: every worker builds and preprocesses the whole
    dataset and keeps one element in N. Sharding it yourself, before the expensive `map`
    and `shuffle`, does each element's work once in the cluster; setting the policy says
    what you meant.

    ## Example
    ```python
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).map(augment).batch(128)
    model.fit(dataset, epochs=3)
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
               .shard(num_workers, strategy.cluster_resolver.task_id)
               .map(augment).batch(128))
    options = tf.data.Options()  # sharded by hand: nothing left for AUTO to do
    options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
    model.fit(dataset.with_options(options), epochs=3)
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/input#sharding
    - https://www.tensorflow.org/tutorials/distribute/multi_worker_with_keras#dataset_sharding
    """,
    valid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64).with_options(options)
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=3)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        files = tf.data.Dataset.list_files("gs://bucket/train-*.tfrecord")
        dataset = files.interleave(tf.data.TFRecordDataset).map(parse).batch(64)
        dist_dataset = strategy.experimental_distribute_dataset(dataset)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
        dist_dataset = strategy.experimental_distribute_dataset(dataset)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()

        def make_dataset(batch_size):
            return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000).batch(batch_size)

        dataset = make_dataset(128)
        with strategy.scope():
            model = build_and_compile()
        model.fit(dataset, epochs=3, steps_per_epoch=70)
        """, lines=(10,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        dataset = tf.data.Dataset.from_tensor_slices(features).batch(64)
        dist_dataset = strategy.experimental_distribute_dataset(dataset)
        """, lines=(4,)),
    ),
)
