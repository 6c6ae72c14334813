"""Denoising autoencoder + small classifier on MNIST, two GPUs (blog-post style, positional compile args)."""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
BATCH = 128 * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train = x_train.astype("float32")[..., None] / 255.0
x_test = x_test.astype("float32")[..., None] / 255.0
noisy_train = np.clip(x_train + 0.4 * np.random.normal(size=x_train.shape), 0.0, 1.0)
noisy_test = np.clip(x_test + 0.4 * np.random.normal(size=x_test.shape), 0.0, 1.0)

with strategy.scope():
    encoder = keras.Sequential([
        keras.Input(shape=(28, 28, 1)),
        layers.Conv2D(32, 3, activation="relu", padding="same", strides=2),
        layers.Conv2D(16, 3, activation="relu", padding="same", strides=2),
    ], name="encoder")
    decoder = keras.Sequential([
        keras.Input(shape=(7, 7, 16)),
        layers.Conv2DTranspose(16, 3, strides=2, activation="relu", padding="same"),
        layers.Conv2DTranspose(32, 3, strides=2, activation="relu", padding="same"),
        layers.Conv2D(1, 3, activation="sigmoid", padding="same"),
    ], name="decoder")
    autoencoder = keras.Sequential([encoder, decoder], name="autoencoder")

# compiled after the with-block, positional arguments
autoencoder.compile(keras.optimizers.Adam(1e-3), "binary_crossentropy")  # expect: MG102
autoencoder.fit(noisy_train, x_train, epochs=10, batch_size=BATCH, validation_data=(noisy_test, x_test))

with strategy.scope():
    encoder.trainable = False
    clf = keras.Sequential([
        encoder,
        layers.Flatten(),
        layers.Dense(10),
    ])
clf.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))  # expect: MG102
clf.fit(x_train, y_train, epochs=3, batch_size=BATCH)
print("test loss:", clf.evaluate(x_test, y_test, batch_size=BATCH))
