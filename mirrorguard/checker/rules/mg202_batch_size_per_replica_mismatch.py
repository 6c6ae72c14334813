"""MG202 batch-size-per-replica-mismatch."""

from __future__ import annotations

from typing import Iterator

from mirrorguard.checker.rules import _batching as batching
from mirrorguard.checker.rules.base import Case, Context, Report, Rule


def check(context: Context) -> Iterator[Report]:
    model = context.model
    with_strategy = {id(unit) for unit in model.strategy_code()}
    for unit in model.units:
        for site in unit.calls:
            found = batching.batch_size_of(site, model)
            if found is None or (id(unit) not in with_strategy and not batching.runs_per_replica(site, model)):
                continue
            message = batching.mismatch(site, found, context)
            if message is not None:
                yield Report(found.report, message)


RULE = Rule(
    code="MG202",
    name="batch-size-per-replica-mismatch",
    summary="Per-replica and global batch sizes mixed up",
    check=check,
    docs="""
    ## What it does
    Inside an input function given to `distribute_datasets_from_function` or
    Keras's `DatasetCreator` (it takes an `InputContext`), flags batching with the *global* batch size
    instead of `input_context.get_per_replica_batch_size(GLOBAL)`: a value
    multiplied by `num_replicas_in_sync`, or the value the file itself hands on
    as its global batch (to `get_per_replica_batch_size(...)` or
    `compute_average_loss(..., global_batch_size=...)`). Everywhere else
    (`experimental_distribute_dataset`, `fit`), flags batching with a
    *per-replica* size: a value divided by `num_replicas_in_sync` (not
    multiplied back), one from `get_per_replica_batch_size`, or a Hugging Face
    `TrainingArguments` per-device field (`args.per_device_train_batch_size`).

    Which batch a value is comes from where the value comes from, never from
    its name: `BATCH_SIZE_PER_REPLICA = 64` is a constant (an unscaled global
    batch where the strategy splits it: MG201), `GLOBAL_BATCH = 256 // n` is
    per replica. A constant inside an input function that nothing marks as
    global is not reported. MG201 is not reported again for a batch MG202
    reports.

    ## Why is this bad?
    `distribute_datasets_from_function` calls the input function once per
    input pipeline and each replica takes a whole batch of what it returns: a
    global batch there makes every replica's batch (and the effective global
    batch) N times too big. Conversely a dataset given to
    `experimental_distribute_dataset` or `fit` is split across the replicas:
    a per-replica size there gives each replica 1/N of the batch you meant.

    ## Example
    ```python
    def dataset_fn(input_context):
        ds = make_dataset().shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return ds.batch(GLOBAL_BATCH_SIZE)

    train_ds = strategy.distribute_datasets_from_function(dataset_fn)
    ```

    ## Use instead
    ```python
    def dataset_fn(input_context):
        batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
        ds = make_dataset().shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return ds.batch(batch_size)
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/input#tfdistributestrategydistribute_datasets_from_function
    """,
    valid=(
        # Names decide nothing: a constant called per-replica, batched where the strategy
        # splits it, is an unscaled global batch (MG201), not a per-replica one.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE_PER_REPLICA = 64
        GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
        ds = make().batch(BATCH_SIZE_PER_REPLICA)
        dist_ds = strategy.experimental_distribute_dataset(ds)
        """),
        # tensorflow/docs parameter_server_training: a constant called global inside the input
        # function, which nothing marks as the global batch: it may be meant per replica.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        GLOBAL_BATCH_SIZE = 64
        def dataset_fn(input_context):
            return make().batch(GLOBAL_BATCH_SIZE)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """),
        # A sibling entry divided by the replicas says nothing about this one.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        CFG = {"PER_REPLICA": 256 // strategy.num_replicas_in_sync, "GLOBAL": 256 * strategy.num_replicas_in_sync}
        ds = ds.batch(CFG["GLOBAL"])
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
        def dataset_fn(input_context):
            batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
            return make().batch(batch_size)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE_PER_REPLICA = 64
        GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
        ds = make().batch(GLOBAL_BATCH_SIZE)
        dist_ds = strategy.experimental_distribute_dataset(ds)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
        def dataset_fn(input_context):
            return make().batch(GLOBAL_BATCH_SIZE)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """, lines=(5,)),
        # The name lies: it says global, the value is divided by the replicas.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        GLOBAL_BATCH = 256 // strategy.num_replicas_in_sync
        ds = make().batch(GLOBAL_BATCH)
        dist_ds = strategy.experimental_distribute_dataset(ds)
        """, lines=(4,)),
        # The name lies the other way: "per replica", scaled to the global batch, in a per-replica function.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def dataset_fn(input_context):
            per_replica_batch = 32 * input_context.num_replicas_in_sync
            ds = make().shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
            return ds.batch(per_replica_batch)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """, lines=(6,)),
        # A constant the file hands on as its global batch (the loss's global_batch_size), batched per replica.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH = 512
        def dataset_fn(input_context):
            return make().batch(BATCH)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        def step(x, y):
            per_example = loss_object(y, model(x))
            return tf.nn.compute_average_loss(per_example, global_batch_size=BATCH)
        """, lines=(5,)),
    ),
)
