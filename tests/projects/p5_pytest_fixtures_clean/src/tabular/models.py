import tensorflow as tf


def build_mlp(num_features, hidden=(64, 32)):
    model = tf.keras.Sequential([tf.keras.Input((num_features,))])
    for units in hidden:
        model.add(tf.keras.layers.Dense(units, activation="relu"))
    model.add(tf.keras.layers.Dense(1))
    return model


class WideAndDeep(tf.keras.Model):
    def __init__(self, hidden=64):
        super().__init__()
        self.wide = tf.keras.layers.Dense(1)
        self.deep = tf.keras.Sequential([tf.keras.layers.Dense(hidden, activation="relu"),
                                         tf.keras.layers.Dense(1)])

    def call(self, inputs):
        return self.wide(inputs) + self.deep(inputs)
