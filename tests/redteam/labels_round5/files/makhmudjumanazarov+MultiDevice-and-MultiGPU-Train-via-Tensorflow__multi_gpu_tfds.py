# red-team round 5 labelled copy of github.com/makhmudjumanazarov/MultiDevice-and-MultiGPU-Train-via-Tensorflow `multi_gpu_tfds.py` at commit a404559a089ca4881a726dd14481492d1b557b1f (verbatim below)
# Labels count lines of this copy: original line + 2.
import numpy as np
import os
import tensorflow as tf
import tensorflow_datasets as tfds
import pathlib

dataset_url = "https://storage.googleapis.com/download.tensorflow.org/example_images/flower_photos.tgz"
archive = tf.keras.utils.get_file(origin=dataset_url, extract=True)
data_dir = pathlib.Path(archive).with_suffix('')

img_height = 180
img_width = 180

num_workers = 2
per_worker_batch_size = 64

global_batch_size = per_worker_batch_size * num_workers

num_classes = 5

def create_model():
  model = tf.keras.Sequential([
    tf.keras.layers.Rescaling(1./255),
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(32, 3, activation='relu'),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(num_classes)
  ])
  return model

# Now, you can proceed with the rest of your TensorFlow code.
strategy = tf.distribute.MultiWorkerMirroredStrategy()

train_ds = tf.keras.utils.image_dataset_from_directory(
  data_dir,
  validation_split=0.2,
  subset="training",
  seed=123,
  image_size=(img_height, img_width),
  batch_size=global_batch_size)

val_ds = tf.keras.utils.image_dataset_from_directory(
  data_dir,
  validation_split=0.2,
  subset="validation",
  seed=123,
  image_size=(img_height, img_width),
  batch_size=global_batch_size)

with strategy.scope():    
    model = create_model()

model.compile(
  optimizer='adam',
  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
  metrics=['accuracy'])

model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=3
)

model.save("multi.h5")