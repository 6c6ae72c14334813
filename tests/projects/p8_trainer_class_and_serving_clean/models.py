import tensorflow as tf

from configs import HPARAMS, NUM_FEATURES


def make_model():
    return tf.keras.Sequential([
        tf.keras.Input((NUM_FEATURES,)),
        tf.keras.layers.Dense(HPARAMS["hidden"], activation="relu"),
        tf.keras.layers.Dense(2),
    ])


def make_optimizer():
    return tf.keras.optimizers.Adam(HPARAMS["lr"])
