"""MG202 (invalid): a `dataset_fn(input_context)` that batches with the global batch.

Style: tensorflow/docs site/en/tutorials/distribute/input.ipynb and
custom_training.ipynb (`strategy.distribute_datasets_from_function(dataset_fn)`),
written by someone who kept `.batch(GLOBAL_BATCH_SIZE)` from the
`experimental_distribute_dataset` version: every replica then takes a whole global
batch. MG202 at the `.batch(` line; MG201 is not reported again for it.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
EVAL_GLOBAL_BATCH = 4 * GLOBAL_BATCH_SIZE


def dataset_fn(input_context):
    ds = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/train-*.tfrecord"))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    ds = ds.map(lambda r: tf.io.parse_single_example(r, {"x": tf.io.FixedLenFeature([32], tf.float32),
                                                          "y": tf.io.FixedLenFeature([], tf.int64)}))
    return ds.shuffle(10_000).batch(GLOBAL_BATCH_SIZE).prefetch(2)  # expect: MG202


def eval_dataset_fn(ctx):
    ds = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/eval-*.tfrecord"))
    return ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(EVAL_GLOBAL_BATCH)  # expect: MG202


dist_train = strategy.distribute_datasets_from_function(dataset_fn)
dist_eval = strategy.distribute_datasets_from_function(eval_dataset_fn)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()

for batch in dist_train:
    pass
