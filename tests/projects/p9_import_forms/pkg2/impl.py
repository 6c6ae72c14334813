import tensorflow as tf


def make():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])
