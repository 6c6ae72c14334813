"""MG202 (valid): per-replica batch from the input context; global batch everywhere else.

Style: tensorflow/docs site/en/tutorials/distribute/input.ipynb
(`batch_size = input_context.get_per_replica_batch_size(global_batch_size)` inside
`dataset_fn`) and run_glue.py (`total_train_batch_size =
training_args.per_device_train_batch_size * strategy.num_replicas_in_sync`).
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
PER_REPLICA_BATCH_SIZE = 64
GLOBAL_BATCH_SIZE = PER_REPLICA_BATCH_SIZE * strategy.num_replicas_in_sync


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
    ds = tf.data.Dataset.from_tensor_slices((tf.random.normal((8192, 16)), tf.zeros((8192,))))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.shuffle(1024).batch(batch_size, drop_remainder=True).prefetch(2)


def eval_dataset_fn(ctx):
    ds = tf.data.Dataset.from_tensor_slices(tf.random.normal((1024, 16)))
    return ds.batch(ctx.get_per_replica_batch_size(1024))


dist_train = strategy.distribute_datasets_from_function(dataset_fn)
dist_eval = strategy.distribute_datasets_from_function(eval_dataset_fn)

plain = tf.data.Dataset.from_tensor_slices(tf.random.normal((4096, 16))).batch(GLOBAL_BATCH_SIZE)
dist_plain = strategy.experimental_distribute_dataset(plain)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
model.fit(tf.random.normal((4096, 16)), tf.zeros((4096, 1)),
          batch_size=PER_REPLICA_BATCH_SIZE * strategy.num_replicas_in_sync, epochs=1)
