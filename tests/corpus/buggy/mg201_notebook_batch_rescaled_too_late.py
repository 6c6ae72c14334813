#!/usr/bin/env python
# coding: utf-8
# Flowers TPU notebook exported with "Download as .py"; cells kept in their original order.

# In[1]:

import math
import re

import numpy as np
import tensorflow as tf

print("Tensorflow version " + tf.__version__)
AUTO = tf.data.AUTOTUNE

# In[2]:

GCS_PATTERN = "gs://flowers-public/tfrecords-jpeg-192x192-2/*.tfrec"
IMAGE_SIZE = [192, 192]
VALIDATION_SPLIT = 0.19
CLASSES = ["daisy", "dandelion", "roses", "sunflowers", "tulips"]
BATCH_SIZE = 64
EPOCHS = 12

# In[3]:


def read_tfrecord(example):
    features = {
        "image": tf.io.FixedLenFeature([], tf.string),
        "class": tf.io.FixedLenFeature([], tf.int64),
    }
    example = tf.io.parse_single_example(example, features)
    image = tf.image.decode_jpeg(example["image"], channels=3)
    image = tf.cast(image, tf.float32) / 255.0
    image = tf.reshape(image, [*IMAGE_SIZE, 3])
    return image, example["class"]


filenames = tf.io.gfile.glob(GCS_PATTERN)
split = int(len(filenames) * VALIDATION_SPLIT)
training_filenames, validation_filenames = filenames[split:], filenames[:split]
steps_per_epoch = 3670 // len(filenames) * len(training_filenames) // BATCH_SIZE

# In[4]:

training_dataset = (
    tf.data.TFRecordDataset(training_filenames, num_parallel_reads=AUTO)
    .map(read_tfrecord, num_parallel_calls=AUTO)
    .repeat()
    .shuffle(2048)
)
training_dataset = training_dataset.batch(BATCH_SIZE, drop_remainder=True)  # expect: MG201
training_dataset = training_dataset.prefetch(AUTO)

# In[5]:

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()
print("REPLICAS: ", strategy.num_replicas_in_sync)

# The batch size is only scaled here, after the training set was already batched above.
BATCH_SIZE = 16 * strategy.num_replicas_in_sync

# In[6]:

validation_dataset = (
    tf.data.TFRecordDataset(validation_filenames, num_parallel_reads=AUTO)
    .map(read_tfrecord, num_parallel_calls=AUTO)
)
validation_dataset = validation_dataset.batch(BATCH_SIZE).cache().prefetch(AUTO)

# In[7]:

with strategy.scope():
    pretrained = tf.keras.applications.MobileNetV2(
        input_shape=[*IMAGE_SIZE, 3], include_top=False, weights="imagenet"
    )
    pretrained.trainable = False
    model = tf.keras.Sequential([
        pretrained,
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(len(CLASSES), activation="softmax"),
    ])
    model.compile(
        optimizer="adam",
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )

model.summary()

# In[8]:

history = model.fit(
    training_dataset,
    steps_per_epoch=steps_per_epoch,
    epochs=EPOCHS,
    validation_data=validation_dataset,
)
final_acc = history.history["val_accuracy"][-1]
print("final validation accuracy: {:.3f}".format(final_acc))
