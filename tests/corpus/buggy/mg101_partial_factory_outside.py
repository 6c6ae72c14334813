"""Shape 9.11 / MG101 widened (invalid): `functools.partial` factories called outside the scope.

Style: tensorflow/models-like code that binds hyper-parameters with
`functools.partial(build_model, ...)` (also common in Keras Tuner and Kaggle
ensembling kernels). Calling the partial, or a partial built inline, is a call
of the factory: MG101 at each call made outside the scope.
"""
import functools

import tensorflow as tf


def build_model(depth, width, num_classes):
    inputs = tf.keras.Input(shape=(64,))
    x = inputs
    for _ in range(depth):
        x = tf.keras.layers.Dense(width, activation="gelu")(x)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(num_classes)(x))


strategy = tf.distribute.MirroredStrategy()
batch = 512 * strategy.num_replicas_in_sync
ds = tf.data.Dataset.load("tabular_train").shuffle(100_000).batch(batch)

small_factory = functools.partial(build_model, depth=2, width=128)

small = small_factory(num_classes=3)  # expect: MG101
large = functools.partial(build_model, depth=6, width=512)(num_classes=3)  # expect: MG101

with strategy.scope():
    for net in (small, large):
        net.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

for net in (small, large):
    net.fit(ds, epochs=5)
