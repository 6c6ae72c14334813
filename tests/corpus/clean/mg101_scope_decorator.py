"""A decorator that runs a factory inside the strategy it is given (seen in research trainers)."""
import functools

import tensorflow as tf


def under_strategy(fn):
    @functools.wraps(fn)
    def wrapper(strategy, *args, **kwargs):
        with strategy.scope():
            return fn(*args, **kwargs)
    return wrapper


@under_strategy
def make_model(num_classes):
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(num_classes)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


strategy = tf.distribute.MirroredStrategy()
model = make_model(strategy, 10)
ds = tf.data.Dataset.from_tensor_slices((tf.zeros((256, 32)), tf.zeros(256, tf.int32)))
model.fit(ds.batch(16 * strategy.num_replicas_in_sync), epochs=1)
