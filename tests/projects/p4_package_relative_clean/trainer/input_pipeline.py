import tensorflow as tf

from .utils import global_batch_size


def _parse(record):
    features = tf.io.parse_single_example(record, {
        "image": tf.io.FixedLenFeature([], tf.string),
        "label": tf.io.FixedLenFeature([], tf.int64),
    })
    image = tf.io.decode_jpeg(features["image"], channels=3)
    image = tf.image.resize(image, (224, 224)) / 255.0
    return image, features["label"]


def make_input(pattern, strategy, per_replica_batch, training=True):
    batch = global_batch_size(strategy, per_replica_batch)
    files = tf.data.Dataset.list_files(pattern, shuffle=training)
    ds = files.interleave(tf.data.TFRecordDataset, num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.map(_parse, num_parallel_calls=tf.data.AUTOTUNE)
    if training:
        ds = ds.shuffle(2048).repeat()
    return ds.batch(batch, drop_remainder=training).prefetch(tf.data.AUTOTUNE)
