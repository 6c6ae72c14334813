# Flower classification on TPU (Kaggle notebook exported as a script)
import math
import re

import numpy as np
import tensorflow as tf

AUTO = tf.data.experimental.AUTOTUNE

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    print("Running on TPU ", tpu.master())
except ValueError:
    tpu = None

if tpu:
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
else:
    strategy = tf.distribute.get_strategy()

print("REPLICAS: ", strategy.num_replicas_in_sync)

IMAGE_SIZE = [512, 512]
EPOCHS = 12
BATCH_SIZE = 128  # tuned on a v3-8
GCS_PATH = "gs://kds-flowers/tfrecords-jpeg-512x512"
TRAINING_FILENAMES = tf.io.gfile.glob(GCS_PATH + "/train/*.tfrec")


def decode_image(image_data):
    image = tf.image.decode_jpeg(image_data, channels=3)
    image = tf.cast(image, tf.float32) / 255.0
    return tf.reshape(image, [*IMAGE_SIZE, 3])


def read_labeled_tfrecord(example):
    fmt = {"image": tf.io.FixedLenFeature([], tf.string), "class": tf.io.FixedLenFeature([], tf.int64)}
    example = tf.io.parse_single_example(example, fmt)
    return decode_image(example["image"]), tf.cast(example["class"], tf.int32)


def get_training_dataset():
    dataset = tf.data.TFRecordDataset(TRAINING_FILENAMES, num_parallel_reads=AUTO)
    dataset = dataset.map(read_labeled_tfrecord, num_parallel_calls=AUTO)
    dataset = dataset.repeat().shuffle(2048)
    dataset = dataset.batch(BATCH_SIZE)  # expect: MG201
    return dataset.prefetch(AUTO)


def count_data_items(filenames):
    n = [int(re.compile(r"-([0-9]*)\.").search(f).group(1)) for f in filenames]
    return np.sum(n)


NUM_TRAINING_IMAGES = count_data_items(TRAINING_FILENAMES)
STEPS_PER_EPOCH = math.ceil(NUM_TRAINING_IMAGES / BATCH_SIZE)

with strategy.scope():
    pretrained_model = tf.keras.applications.Xception(weights="imagenet", include_top=False,
                                                      input_shape=[*IMAGE_SIZE, 3])
    pretrained_model.trainable = True
    model = tf.keras.Sequential([
        pretrained_model,
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(104, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])

history = model.fit(get_training_dataset(), steps_per_epoch=STEPS_PER_EPOCH, epochs=EPOCHS)
