import tensorflow as tf


def build_mlp():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])


def _inner():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])


def build_nested():
    return _inner()


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(1)
        self.compile(optimizer="adam", loss="mse")

    def call(self, x):
        return self.d(x)


class Zoo:
    @staticmethod
    def create():
        return tf.keras.Sequential([tf.keras.layers.Dense(1)])
