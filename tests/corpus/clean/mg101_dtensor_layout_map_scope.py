"""DTensor model parallelism (tf_keras DTensor API).  layout_map.scope() is a DTensor
layout scope, not a tf.distribute strategy, and no strategy exists in this file."""
import tensorflow as tf
import tf_keras as keras
from tensorflow.experimental import dtensor

devices = [f"CPU:{i}" for i in range(8)]
tf.config.set_logical_device_configuration(
    tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 8)

mesh = dtensor.create_mesh([("batch", 4), ("model", 2)], devices=devices)
layout_map = keras.dtensor.experimental.LayoutMap(mesh=mesh)
layout_map["feature.*kernel"] = dtensor.Layout.batch_sharded(mesh, "model", rank=2)
layout_map["feature.*bias"] = dtensor.Layout.replicated(mesh, rank=1)

with layout_map.scope():
    inputs = keras.Input((784,), batch_size=64)
    x = keras.layers.Dense(1024, activation="relu", name="feature")(inputs)
    x = keras.layers.Dense(512, activation="relu", name="feature_2")(x)
    outputs = keras.layers.Dense(10, name="classifier")(x)
    model = keras.Model(inputs, outputs)

optimizer = keras.dtensor.experimental.optimizers.Adam(0.001, mesh=mesh)
model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy", metrics=["accuracy"])

(x_train, y_train), _ = keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train.reshape(-1, 784) / 255.0, y_train)).batch(64, drop_remainder=True)
model.fit(ds, epochs=2)
