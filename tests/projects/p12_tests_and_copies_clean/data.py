import tensorflow as tf


def make_ds(x, y, batch_size=32):
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(512).batch(batch_size)
