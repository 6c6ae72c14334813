"""Keras 3 ModelParallel with a LayoutMap: `distribution.scope()` is not a tf.distribute scope."""
import keras

mesh = keras.distribution.DeviceMesh(shape=(2, 4), axis_names=("batch", "model"),
                                     devices=keras.distribution.list_devices())
layout_map = keras.distribution.LayoutMap(mesh)
layout_map["dense.*kernel"] = (None, "model")
layout_map["dense.*bias"] = ("model",)
distribution = keras.distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")

with distribution.scope():
    model = keras.Sequential([keras.Input((784,)), keras.layers.Dense(1024, name="dense_1"),
                              keras.layers.Dense(10, name="dense_2")])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices((tf.random.normal((256, 784)), tf.zeros(256, tf.int32))).batch(32)
model.fit(ds, epochs=1)
