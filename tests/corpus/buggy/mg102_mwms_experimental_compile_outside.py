import json
import os

import numpy as np
import tensorflow as tf

os.environ.setdefault("TF_CONFIG", json.dumps({
    "cluster": {"worker": ["host1:12345", "host2:12345"]},
    "task": {"type": "worker", "index": 0},
}))

strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy(
    communication=tf.distribute.experimental.CollectiveCommunication.NCCL)

x = np.load("features.npy")
y = np.load("targets.npy")

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(512, activation="relu", input_shape=(x.shape[1],)),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(1),
    ])

model.compile(optimizer="adam", loss="huber")  # expect: MG102
model.fit(x, y, epochs=10, batch_size=64, validation_split=0.1)  # expect: MG201, MG404
