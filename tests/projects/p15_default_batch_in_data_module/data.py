"""Pipelines for the click-through model; the batch size has a default the scripts rely on."""
import tensorflow as tf


def make_dataset(features, labels, batch_size=512, shuffle=True):
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    if shuffle:
        ds = ds.shuffle(100_000)
    return ds.batch(batch_size).prefetch(tf.data.AUTOTUNE)
