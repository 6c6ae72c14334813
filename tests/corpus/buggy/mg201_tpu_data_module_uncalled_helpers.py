"""data.py of a Kaggle TPU project: hardware detection plus the input pipelines.

train.py does `from data import strategy, get_training_dataset, get_validation_dataset`.
"""
import re

import numpy as np
import tensorflow as tf

AUTO = tf.data.AUTOTUNE
IMAGE_SIZE = [512, 512]

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
    strategy = tf.distribute.TPUStrategy(tpu)  # expect: MG107
except ValueError:
    strategy = tf.distribute.MirroredStrategy()  # expect: MG107
print("Number of replicas:", strategy.num_replicas_in_sync)


def count_data_items(filenames):
    n = [int(re.compile(r"-([0-9]*)\.").search(name).group(1)) for name in filenames]
    return np.sum(n)


def decode_image(image_data):
    image = tf.image.decode_jpeg(image_data, channels=3)
    image = tf.cast(image, tf.float32) / 255.0
    return tf.reshape(image, [*IMAGE_SIZE, 3])


def read_labeled_tfrecord(example):
    fmt = {
        "image": tf.io.FixedLenFeature([], tf.string),
        "target": tf.io.FixedLenFeature([], tf.int64),
    }
    example = tf.io.parse_single_example(example, fmt)
    return decode_image(example["image"]), example["target"]


def data_augment(image, label):
    image = tf.image.random_flip_left_right(image)
    image = tf.image.random_saturation(image, 0, 2)
    return image, label


def load_dataset(filenames, ordered=False):
    options = tf.data.Options()
    options.experimental_deterministic = ordered
    ds = tf.data.TFRecordDataset(filenames, num_parallel_reads=AUTO)
    return ds.with_options(options).map(read_labeled_tfrecord, num_parallel_calls=AUTO)


def get_training_dataset(filenames):
    dataset = load_dataset(filenames)
    dataset = dataset.map(data_augment, num_parallel_calls=AUTO)
    dataset = dataset.repeat().shuffle(2048)
    dataset = dataset.batch(128)  # expect: MG201
    return dataset.prefetch(AUTO)


def get_validation_dataset(filenames, ordered=False):
    dataset = load_dataset(filenames, ordered=ordered)
    dataset = dataset.batch(128)  # expect: MG201
    return dataset.cache().prefetch(AUTO)
