import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import tensorflow as tf
from keras import layers


class MiniVGG(keras.Model):
    def __init__(self, num_classes=10, **kwargs):
        super().__init__(**kwargs)
        self.block1 = keras.Sequential([layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D()])
        self.block2 = keras.Sequential([layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D()])
        self.flatten = layers.Flatten()
        self.head = layers.Dense(num_classes)

    def call(self, inputs, training=False):
        x = self.block1(inputs)
        x = self.block2(x)
        return self.head(self.flatten(x))


strategy = tf.distribute.MirroredStrategy()
batch_size = 64 * strategy.num_replicas_in_sync

(x_train, y_train), _ = keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(batch_size)

model = MiniVGG(num_classes=10)  # expect: MG101
with strategy.scope():
    model.compile(
        optimizer=keras.optimizers.Adam(3e-4),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
model.fit(train_ds, epochs=5)
