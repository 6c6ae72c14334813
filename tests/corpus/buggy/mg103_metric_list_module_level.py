"""Imbalanced classification, trained on every visible GPU."""
import numpy as np
import tensorflow as tf
from tensorflow import keras

METRICS = [keras.metrics.Precision(name="precision"), keras.metrics.Recall(name="recall")]  # expect: MG103
EPOCHS = 100


def make_model(metrics, output_bias=None, n_features=29):
    if output_bias is not None:
        output_bias = keras.initializers.Constant(output_bias)
    model = keras.Sequential([
        keras.layers.Dense(16, activation="relu", input_shape=(n_features,)),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(1, activation="sigmoid", bias_initializer=output_bias),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=keras.losses.BinaryCrossentropy(),
                  metrics=metrics)
    return model


strategy = tf.distribute.MirroredStrategy()
batch = 2048 * strategy.num_replicas_in_sync
train_features = np.load("train_features.npy")
train_labels = np.load("train_labels.npy")
pos = train_labels.sum()
initial_bias = np.log([pos / (len(train_labels) - pos)])

with strategy.scope():
    model = make_model(METRICS, output_bias=initial_bias)

train_ds = tf.data.Dataset.from_tensor_slices((train_features, train_labels)).shuffle(100000).batch(batch)
model.fit(train_ds, epochs=EPOCHS)
