"""Input pipelines; batch sizes are always given by the caller."""
import tensorflow as tf

AUTOTUNE = tf.data.AUTOTUNE


def _normalize(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


def build_train_dataset(images, labels, global_batch_size, shuffle_buffer=10_000):
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    ds = ds.shuffle(shuffle_buffer).map(_normalize, num_parallel_calls=AUTOTUNE)
    return ds.batch(global_batch_size, drop_remainder=True).prefetch(AUTOTUNE)


def build_eval_dataset(images, labels, batch_size):
    ds = tf.data.Dataset.from_tensor_slices((images, labels)).map(_normalize)
    return ds.batch(batch_size).prefetch(AUTOTUNE)
