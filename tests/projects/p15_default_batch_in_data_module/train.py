import numpy as np
import tensorflow as tf

from data import make_dataset

strategy = tf.distribute.MirroredStrategy()
features = np.random.rand(100_000, 39).astype("float32")
labels = np.random.randint(0, 2, 100_000).astype("float32")
train_ds = make_dataset(features, labels)  # expect: MG201

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((39,)), tf.keras.layers.Dense(256, activation="relu"),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=[tf.keras.metrics.AUC()])
model.fit(train_ds, epochs=2)
