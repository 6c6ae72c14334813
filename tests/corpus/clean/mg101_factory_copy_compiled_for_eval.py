"""Accuracy check after distributed training: a single-device copy from the same factory, compiled and evaluated."""
import numpy as np
import tensorflow as tf


def create_model():
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(28, 28)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])


strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync
(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
x_train, x_test = x_train.astype(np.float32) / 255.0, x_test.astype(np.float32) / 255.0

with strategy.scope():
    model = create_model()
    model.compile(
        optimizer=tf.keras.optimizers.Adam(),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
model.fit(x_train, y_train, batch_size=GLOBAL_BATCH, epochs=3)
model.save_weights("distributed.weights.h5")

# Same weights on one device: the accuracies must agree.
single_device = create_model()
single_device.load_weights("distributed.weights.h5")
single_device.compile(
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
_, distributed_acc = model.evaluate(x_test, y_test, batch_size=GLOBAL_BATCH)
_, single_acc = single_device.evaluate(x_test, y_test, batch_size=GLOBAL_BATCH)
assert abs(distributed_acc - single_acc) < 1e-3, (distributed_acc, single_acc)
