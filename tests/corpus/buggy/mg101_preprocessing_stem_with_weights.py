"""Shape 9.13 (invalid): a "preprocessing" Sequential that owns weights, built outside.

Style: keras-io vision examples that put a learned stem next to the augmentation
layers (`keras.Sequential([layers.Rescaling(1/255), layers.Conv2D(...),
layers.BatchNormalization()])`) and build it outside the scope before using it
in the model built inside. Unlike the weightless augmentation block, this one
has kernels and BatchNorm statistics: MG101.
"""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
batch_size = 64 * strategy.num_replicas_in_sync

augment = keras.Sequential([layers.RandomFlip("horizontal"), layers.RandomTranslation(0.1, 0.1)])
stem = keras.Sequential([  # expect: MG101
    keras.Input(shape=(32, 32, 3)),
    layers.Rescaling(1.0 / 255),
    layers.Conv2D(32, 3, strides=2, padding="same"),
    layers.BatchNormalization(),
    layers.Activation("relu"),
], name="stem")

(x_train, y_train), _ = keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(50_000).batch(batch_size)

with strategy.scope():
    inputs = keras.Input(shape=(32, 32, 3))
    x = augment(inputs)
    x = stem(x)
    x = layers.Conv2D(64, 3, padding="same", activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    model = keras.Model(inputs, layers.Dense(10)(x))
    model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

model.fit(train_ds, epochs=30)
