"""keras-io style: a small ViT-ish classifier with an augmentation Sequential.

The augmentation block is itself a keras.Sequential (a Model with a seed
generator state) and is built outside the scope, then used by the model
that is built inside it.
"""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

image_size = 72
num_classes = 100

strategy = tf.distribute.MirroredStrategy()
batch_size = 256 * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = keras.datasets.cifar100.load_data()

data_augmentation = keras.Sequential(  # expect: MG101
    [
        layers.Normalization(),
        layers.Resizing(image_size, image_size),
        layers.RandomFlip("horizontal"),
        layers.RandomRotation(factor=0.02),
        layers.RandomZoom(height_factor=0.2, width_factor=0.2),
    ],
    name="data_augmentation",
)
data_augmentation.layers[0].adapt(x_train)

with strategy.scope():
    inputs = keras.Input(shape=(32, 32, 3))
    augmented = data_augmentation(inputs)
    x = layers.Conv2D(64, 6, strides=6)(augmented)
    x = layers.Reshape((-1, 64))(x)
    x = layers.MultiHeadAttention(num_heads=4, key_dim=16)(x, x)
    x = layers.GlobalAveragePooling1D()(x)
    logits = layers.Dense(num_classes)(x)
    model = keras.Model(inputs=inputs, outputs=logits)
    model.compile(
        optimizer=keras.optimizers.AdamW(learning_rate=1e-3, weight_decay=1e-4),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")],
    )

model.fit(x_train, y_train, batch_size=batch_size, epochs=100, validation_split=0.1)
