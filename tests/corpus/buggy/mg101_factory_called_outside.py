#!/usr/bin/env python
"""CIFAR-10 ResNet-ish training script."""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

EPOCHS = 30


def residual_block(x, filters):
    shortcut = x
    x = layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    x = layers.ReLU()(x)
    x = layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.ReLU()(layers.add([shortcut, x]))


def make_model(num_classes=10):
    inputs = keras.Input(shape=(32, 32, 3))
    x = layers.Conv2D(64, 3, padding="same")(inputs)
    for _ in range(3):
        x = residual_block(x, 64)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(num_classes)(x)
    return keras.Model(inputs, outputs, name="resnet_small")


(x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()
x_train, x_test = x_train / 255.0, x_test / 255.0

mirrored_strategy = tf.distribute.MirroredStrategy()
global_batch_size = 64 * mirrored_strategy.num_replicas_in_sync

model = make_model()  # expect: MG101

with mirrored_strategy.scope():
    model.compile(
        optimizer=keras.optimizers.SGD(learning_rate=0.1, momentum=0.9),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(50000).batch(global_batch_size)
test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(global_batch_size)
model.fit(train_ds, epochs=EPOCHS, validation_data=test_ds)
model.save("resnet_small.keras")
