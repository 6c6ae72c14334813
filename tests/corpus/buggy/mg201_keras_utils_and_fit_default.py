"""Shape 9.9 (invalid): `*_dataset_from_*` batch sizes and `fit(x, y)` with Keras's default 32.

Style: tensorflow/docs tutorials (images/classification.ipynb with
`image_dataset_from_directory(..., batch_size=32)`, keras-io timeseries weather
forecasting with `timeseries_dataset_from_array(..., batch_size=256)`,
text_classification with `text_dataset_from_directory`) run under a strategy.
`fit` on numpy arrays without `batch_size=` uses an unscaled global 32.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

images = keras.utils.image_dataset_from_directory(
    "flower_photos",
    image_size=(180, 180),
    batch_size=32,  # expect: MG201
)
reviews = keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=64)  # expect: MG201
series = np.load("climate.npy")
windows = keras.utils.timeseries_dataset_from_array(
    series[:-72], series[72:, 1], sequence_length=120, sampling_rate=6,
    batch_size=256,  # expect: MG201
)

with strategy.scope():
    image_model = keras.Sequential([keras.layers.Rescaling(1 / 255), keras.layers.Conv2D(16, 3),
                                    keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(5)])
    image_model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    text_model = keras.Sequential([keras.layers.TextVectorization(max_tokens=10_000, output_sequence_length=200),
                                   keras.layers.Embedding(10_000, 32), keras.layers.GlobalAveragePooling1D(),
                                   keras.layers.Dense(1)])
    text_model.compile(optimizer="adam", loss="binary_crossentropy")
    forecaster = keras.Sequential([keras.layers.LSTM(32), keras.layers.Dense(1)])
    forecaster.compile(optimizer="adam", loss="mse")

image_model.fit(images, epochs=10)
text_model.fit(reviews, epochs=3)
forecaster.fit(windows, epochs=10)

x_tab = np.random.rand(10_000, 20).astype("float32")
y_tab = np.random.rand(10_000, 1).astype("float32")
with strategy.scope():
    tab = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])
    tab.compile(optimizer="adam", loss="mse")
tab.fit(x_tab, y_tab, epochs=5, validation_split=0.1)  # expect: MG201
