"""Parameter-server training with Model.fit (tensorflow/docs parameter_server_training style)."""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf-keras: Keras 3 cannot fit() here (MG404)
import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
variable_partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(
    min_shard_bytes=(256 << 10), max_shards=2)
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver, variable_partitioner=variable_partitioner)

GLOBAL_BATCH_SIZE = 64


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
    x = tf.random.uniform((10, 10))
    y = tf.random.uniform((10,))
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10).repeat()
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    dataset = dataset.batch(batch_size)
    return dataset.prefetch(2)


dc = tf.keras.utils.experimental.DatasetCreator(dataset_fn)

with strategy.scope():
    model = tf.keras.models.Sequential([tf.keras.layers.Dense(10)])
    model.compile(tf.keras.optimizers.legacy.SGD(), loss="mse", steps_per_execution=10)

working_dir = os.environ.get("WORKDIR", "/tmp/ps_working_dir")
callbacks = [
    tf.keras.callbacks.TensorBoard(log_dir=os.path.join(working_dir, "log")),
    tf.keras.callbacks.ModelCheckpoint(filepath=os.path.join(working_dir, "ckpt")),
    tf.keras.callbacks.BackupAndRestore(backup_dir=os.path.join(working_dir, "backup")),
]
model.fit(dc, epochs=5, steps_per_epoch=20, callbacks=callbacks)
