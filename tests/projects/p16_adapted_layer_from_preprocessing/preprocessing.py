"""Feature preprocessing layers fitted on the training data (keras.io structured-data style)."""
import tensorflow as tf


def fitted_normalizer(values):
    norm = tf.keras.layers.Normalization(axis=-1)
    norm.adapt(values)
    return norm


def fitted_lookup(values):
    lookup = tf.keras.layers.StringLookup(output_mode="one_hot")
    lookup.adapt(values)
    return lookup
