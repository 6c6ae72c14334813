"""Benchmark: replicated model vs. a deliberately unreplicated baseline.

The baseline is built outside the scope on purpose and the findings are suppressed."""
import time

import tensorflow as tf
from tensorflow import keras


def get_model():
    return keras.Sequential([keras.layers.Dense(512, activation="relu"), keras.layers.Dense(10)])


strategy = tf.distribute.MirroredStrategy()
global_batch = 256 * strategy.num_replicas_in_sync
(x, y), _ = keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x.reshape(-1, 784) / 255.0, y)).batch(global_batch)

with strategy.scope():
    replicated = get_model()
    replicated.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))

unreplicated = get_model()  # noqa: MG101 -- single-device baseline on purpose
unreplicated.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # noqa: MG102

for name, m in (("replicated", replicated), ("single", unreplicated)):
    start = time.perf_counter()
    m.fit(ds, epochs=2, verbose=0)
    print(name, time.perf_counter() - start)
