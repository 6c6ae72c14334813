"""MG105 (invalid): a `Normalization` layer adapted outside the scope, used by a model built inside.

Style: tensorflow/docs site/en/tutorials/keras/regression.ipynb
(`normalizer = tf.keras.layers.Normalization(axis=-1)`; `normalizer.adapt(np.array(
train_features))`) moved to a multi-GPU box. Measured: tf-keras fails ("was not
created in the distribution strategy scope"), Keras 3 keeps unreplicated
statistics. Reported where the layer is created, not at `adapt`.
"""
import numpy as np
import pandas as pd
import tensorflow as tf

raw = pd.read_csv("auto-mpg.csv").dropna()
train = raw.sample(frac=0.8, random_state=0)
train_features = train.copy()
train_labels = train_features.pop("MPG")

strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync

normalizer = tf.keras.layers.Normalization(axis=-1)  # expect: MG105
normalizer.adapt(np.array(train_features))

with strategy.scope():
    dnn_model = tf.keras.Sequential([
        normalizer,
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    dnn_model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.Adam(0.001))

dnn_model.fit(train_features, train_labels, validation_split=0.2, batch_size=batch_size, epochs=100)
