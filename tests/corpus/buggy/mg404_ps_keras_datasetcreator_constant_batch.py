"""parameter_server_training tutorial, Model.fit path: DatasetCreator's dataset_fn batches the global size."""
import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver)
global_batch_size = 64


def dataset_fn(input_context):
    x = tf.random.uniform((10, 10))
    y = tf.random.uniform((10,))
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10).repeat()
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    dataset = dataset.batch(global_batch_size)
    return dataset.prefetch(2)


dc = tf.keras.utils.experimental.DatasetCreator(dataset_fn)

with strategy.scope():
    model = tf.keras.models.Sequential([tf.keras.layers.Dense(10)])
    model.compile(tf.keras.optimizers.legacy.SGD(), loss="mse", steps_per_execution=10)

working_dir = "/tmp/my_working_dir"
callbacks = [
    tf.keras.callbacks.TensorBoard(log_dir=working_dir + "/log"),
    tf.keras.callbacks.ModelCheckpoint(filepath=working_dir + "/ckpt"),
    tf.keras.callbacks.BackupAndRestore(backup_dir=working_dir + "/backup"),
]
model.fit(dc, epochs=5, steps_per_epoch=20, callbacks=callbacks)  # expect: MG404
