"""Compare a replicated model with an unreplicated baseline on the same data."""
import time

import tensorflow as tf
from tensorflow import keras


def get_model():
    inputs = keras.Input(shape=(784,))
    x = keras.layers.Dense(256, activation="relu")(inputs)
    x = keras.layers.Dense(256, activation="relu")(x)
    outputs = keras.layers.Dense(10)(x)
    return keras.Model(inputs, outputs)


strategy = tf.distribute.MirroredStrategy()
global_batch = 512 * strategy.num_replicas_in_sync

(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(global_batch).cache()

with strategy.scope():
    replicated_model = get_model()
    replicated_model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

# Baseline on one device, for the speed-up table
unreplicated_model = get_model()  # expect: MG101
unreplicated_model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # expect: MG102

for name, m in [("replicated", replicated_model), ("unreplicated", unreplicated_model)]:
    t0 = time.time()
    m.fit(ds, epochs=3, verbose=0)
    print(f"{name}: {time.time() - t0:.1f}s")
