"""DTensor data parallelism with tf.keras (experimental API)."""
import tensorflow as tf
from tensorflow.experimental import dtensor

devices = [f"CPU:{i}" for i in range(4)]
mesh = dtensor.create_mesh([("batch", 4)], devices=devices)
layout_map = tf.keras.dtensor.experimental.LayoutMap(mesh=mesh)
layout_map["feature.*kernel"] = dtensor.Layout.batch_sharded(mesh, "batch", rank=2)

with layout_map.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, name="feature"), tf.keras.layers.Dense(2)])

optimizer = tf.keras.dtensor.experimental.optimizers.Adam(0.01, mesh=mesh)
dataset = tf.data.Dataset.from_tensor_slices((tf.random.normal((512, 8)), tf.zeros((512,), tf.int32)))
dataset = dataset.batch(64, drop_remainder=True)
