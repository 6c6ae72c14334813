"""Horovod data parallelism: one process per GPU, no tf.distribute strategy."""
import horovod.tensorflow.keras as hvd
import tensorflow as tf

hvd.init()
gpus = tf.config.list_physical_devices("GPU")
if gpus:
    tf.config.set_visible_devices(gpus[hvd.local_rank()], "GPU")

(x, y), _ = tf.keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x[..., None] / 255.0, y)).shard(hvd.size(), hvd.rank())
ds = ds.shuffle(10_000).batch(128).repeat()

model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(128, activation="relu"),
                             tf.keras.layers.Dense(10)])
opt = hvd.DistributedOptimizer(tf.keras.optimizers.Adam(0.001 * hvd.size()))
model.compile(optimizer=opt, loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"], experimental_run_tf_function=False)
callbacks = [hvd.callbacks.BroadcastGlobalVariablesCallback(0), hvd.callbacks.MetricAverageCallback()]
model.fit(ds, steps_per_epoch=500 // hvd.size(), epochs=3, callbacks=callbacks,
          verbose=1 if hvd.rank() == 0 else 0)
