import numpy as np
import tensorflow as tf


def synthetic(n=256, num_features=8, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, num_features)).astype("float32")
    y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
    return x, y


def as_dataset(x, y, batch_size):
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size)
