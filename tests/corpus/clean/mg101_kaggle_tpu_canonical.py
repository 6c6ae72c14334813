"""Kaggle TPU flowers kernel as published: detection helper, scaled batch, backbone built in the scope."""
import math
import re

import numpy as np
import tensorflow as tf

AUTO = tf.data.experimental.AUTOTUNE

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()

IMAGE_SIZE = [512, 512]
EPOCHS = 12
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
LR_START, LR_MAX, LR_MIN = 0.00001, 0.00005 * strategy.num_replicas_in_sync, 0.00001


def count_data_items(filenames):
    return np.sum([int(re.compile(r"-([0-9]*)\.").search(f).group(1)) for f in filenames])


def load_dataset(filenames, ordered=False):
    options = tf.data.Options()
    options.experimental_deterministic = ordered
    ds = tf.data.TFRecordDataset(filenames, num_parallel_reads=AUTO).with_options(options)
    return ds.map(lambda r: (tf.zeros(IMAGE_SIZE + [3]), 0), num_parallel_calls=AUTO)


def get_training_dataset(files):
    return load_dataset(files).repeat().shuffle(2048).batch(BATCH_SIZE).prefetch(AUTO)


def get_test_dataset(files):
    return load_dataset(files, ordered=True).batch(BATCH_SIZE).prefetch(AUTO)


def lrfn(epoch):
    if epoch < 3:
        return (LR_MAX - LR_START) / 3 * epoch + LR_START
    return (LR_MAX - LR_MIN) * math.exp(-0.8 * (epoch - 3)) + LR_MIN


lr_callback = tf.keras.callbacks.LearningRateScheduler(lrfn, verbose=True)

with strategy.scope():
    enet = tf.keras.applications.EfficientNetB3(input_shape=[*IMAGE_SIZE, 3], weights="imagenet", include_top=False)
    model = tf.keras.Sequential([
        enet,
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(104, activation="softmax"),
    ])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(),
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )

train_files = tf.io.gfile.glob("gs://flowers/train/*.tfrec")
steps = count_data_items(train_files) // BATCH_SIZE
model.fit(get_training_dataset(train_files), steps_per_epoch=steps, epochs=EPOCHS, callbacks=[lr_callback])
probabilities = model.predict(get_test_dataset(tf.io.gfile.glob("gs://flowers/test/*.tfrec")))
