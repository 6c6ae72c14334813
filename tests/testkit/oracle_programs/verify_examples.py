"""Build functions for `mirrorguard verify` tests: one right, one wrong, one that crashes."""

import numpy as np
import tensorflow as tf

GLOBAL_BATCH = 16


def oracle_data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype("float32")
    return x, (x @ np.ones((3, 1))).astype("float32")


def _build(strategy, mean: bool):
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.SGD(0.1)

    def step(batch):
        x, y = batch
        with tf.GradientTape() as tape:
            per_example = tf.reduce_sum(tf.square(y - model(x, training=True)), axis=-1)
            if mean:
                loss = tf.reduce_mean(per_example)
            else:
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    @tf.function
    def train_step(batch):
        return strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None)

    return model, train_step


def build_right(strategy):
    return _build(strategy, mean=False)


def build_mean(strategy):
    return _build(strategy, mean=True)


def build_crashes(strategy):
    raise KeyError("no such layer")


def build_uncompiled(strategy):
    with strategy.scope():
        return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])


NOT_A_FUNCTION = 3
