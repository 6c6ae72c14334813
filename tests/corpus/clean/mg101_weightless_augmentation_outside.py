"""Shape 9.13 (valid): a weightless preprocessing Sequential made and called outside the scope.

Style: keras-io examples/vision/image_classification_from_scratch.py
(`data_augmentation = keras.Sequential([layers.RandomFlip("horizontal"),
layers.RandomRotation(0.1)])`, applied in a `tf.data` `map` or as the model's first
block) and the TF data_augmentation tutorial (`Rescaling`, `Resizing`). Such models
have no weights; measured: `fit` runs on Keras 3 and tf-keras. Not MG101.
"""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
image_size = (180, 180)
batch_size = 32 * strategy.num_replicas_in_sync

data_augmentation = keras.Sequential([
    layers.RandomFlip("horizontal"),
    layers.RandomRotation(0.1),
    layers.RandomZoom(0.1),
])
resize_and_rescale = keras.Sequential([layers.Resizing(*image_size), layers.Rescaling(1.0 / 255)])

train_ds = keras.utils.image_dataset_from_directory("PetImages", validation_split=0.2, subset="training", seed=1337,
                                                    image_size=image_size, batch_size=batch_size)
train_ds = train_ds.map(lambda img, label: (data_augmentation(img, training=True), label),
                        num_parallel_calls=tf.data.AUTOTUNE)
sample = data_augmentation(tf.zeros((1,) + image_size + (3,)))

with strategy.scope():
    inputs = keras.Input(shape=image_size + (3,))
    x = resize_and_rescale(inputs)
    x = data_augmentation(x)
    x = layers.Conv2D(32, 3, strides=2, activation="relu")(x)
    x = layers.Conv2D(64, 3, activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(3e-4),
                  loss=keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=[keras.metrics.BinaryAccuracy(name="acc")])

model.fit(train_ds, epochs=25)
