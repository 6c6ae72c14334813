"""Speed/accuracy check script: a replicated model is trained; a single-device copy only loads and predicts."""
import time

import numpy as np
import tensorflow as tf


def create_model():
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(20,)),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(1),
    ])


strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 512 * strategy.num_replicas_in_sync
x = np.random.rand(100_000, 20).astype("float32")
y = x.sum(axis=1, keepdims=True)

with strategy.scope():
    model = create_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")

start = time.time()
model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=3, verbose=0)
print("replicated fit took", time.time() - start)
model.save_weights("replicated.weights.h5")

single_device_copy = create_model()
single_device_copy.load_weights("replicated.weights.h5")
diff = np.abs(single_device_copy.predict(x[:1000], verbose=0) - model.predict(x[:1000], verbose=0)).max()
print("max prediction difference between the copies:", diff)
