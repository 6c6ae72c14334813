"""Shape 9.7 (invalid): metric objects reach compile through a parameter default.

Style: tensorflow/docs site/en/tutorials/structured_data/imbalanced_data.ipynb,
which defines `METRICS = [keras.metrics.TruePositives(name='tp'), ...]` at module
level and `def make_model(metrics=METRICS, output_bias=None)`; here the factory is
called inside the scope, but the default list was built at import time, outside.
One MG103 per line that creates a metric object.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras

METRICS = [
    keras.metrics.BinaryCrossentropy(name="cross entropy"),  # expect: MG103
    keras.metrics.TruePositives(name="tp"),  # expect: MG103
    keras.metrics.FalsePositives(name="fp"),  # expect: MG103
    keras.metrics.Precision(name="precision"),  # expect: MG103
    keras.metrics.Recall(name="recall"),  # expect: MG103
    keras.metrics.AUC(name="prc", curve="PR"),  # expect: MG103
]


def make_model(n_features, metrics=METRICS, output_bias=None):
    if output_bias is not None:
        output_bias = keras.initializers.Constant(output_bias)
    model = keras.Sequential([
        keras.layers.Dense(16, activation="relu", input_shape=(n_features,)),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(1, activation="sigmoid", bias_initializer=output_bias),
    ])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3),
                  loss=keras.losses.BinaryCrossentropy(),
                  metrics=metrics)
    return model


train_features = np.load("train_features.npy")
train_labels = np.load("train_labels.npy")
neg, pos = np.bincount(train_labels)

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 2048 * strategy.num_replicas_in_sync

with strategy.scope():
    model = make_model(train_features.shape[-1], output_bias=np.log([pos / neg]))

model.fit(train_features, train_labels, batch_size=BATCH_SIZE, epochs=100, validation_split=0.2)
