"""OneDeviceStrategy pinned to the second GPU; the model is built in scope, and
predict() takes an explicit batch size (predict is not a training reduction)."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy(device="/gpu:1")

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(32,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(3, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.load_weights("weights/tabular.weights.h5")

x = np.load("to_score.npy")
probs = model.predict(x, batch_size=1024, verbose=0)
np.save("scores.npy", probs)
