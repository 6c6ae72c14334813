import tensorflow as tf


def make_optimizer(base_lr=0.1, decay_steps=10_000):
    schedule = tf.keras.optimizers.schedules.CosineDecay(base_lr, decay_steps)
    return tf.keras.optimizers.SGD(learning_rate=schedule, momentum=0.9)


def make_metrics():
    return {
        "loss": tf.keras.metrics.Mean(name="train_loss"),
        "acc": tf.keras.metrics.SparseCategoricalAccuracy(name="train_acc"),
    }
