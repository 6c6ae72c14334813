"""Keras 3 distribution API (JAX-style data parallelism).  keras.distribution is not
tf.distribute: there is no strategy and no scope to enter."""
import os

os.environ["KERAS_BACKEND"] = "jax"

import keras
import numpy as np

devices = keras.distribution.list_devices()
data_parallel = keras.distribution.DataParallel(devices=devices)
keras.distribution.set_distribution(data_parallel)

inputs = keras.Input(shape=(28, 28, 1))
y = keras.layers.Flatten()(inputs)
y = keras.layers.Dense(units=200, use_bias=False, activation="relu")(y)
y = keras.layers.Dropout(0.4)(y)
y = keras.layers.Dense(units=10, activation="softmax")(y)
model = keras.Model(inputs=inputs, outputs=y)

optimizer = keras.optimizers.Adam(1e-3)
acc = keras.metrics.SparseCategoricalAccuracy()
model.compile(loss="sparse_categorical_crossentropy", optimizer=optimizer, metrics=[acc])

x = np.random.normal(size=(1024, 28, 28, 1))
labels = np.random.randint(0, 10, size=(1024,))
model.fit(x, labels, epochs=3, batch_size=128)
model.evaluate(x, labels, batch_size=256)
