"""Keras 3 multi-backend data parallelism (keras.distribution), not tf.distribute."""
import os

os.environ["KERAS_BACKEND"] = "jax"

import keras
import numpy as np

devices = keras.distribution.list_devices()
data_parallel = keras.distribution.DataParallel(devices=devices)
keras.distribution.set_distribution(data_parallel)

model = keras.Sequential([
    keras.Input((28, 28, 1)),
    keras.layers.Conv2D(32, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(10),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=[keras.metrics.SparseCategoricalAccuracy()])
x = np.random.rand(512, 28, 28, 1).astype("float32")
y = np.random.randint(0, 10, size=(512,))
model.fit(x, y, batch_size=64, epochs=1)
