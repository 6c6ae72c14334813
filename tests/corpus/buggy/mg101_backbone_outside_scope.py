"""
Title: Image classification via fine-tuning with EfficientNet (multi-GPU variant)
Description: keras-io style transfer learning on Stanford Dogs.
"""
import tensorflow as tf
import tensorflow_datasets as tfds
from tensorflow import keras
from tensorflow.keras import layers

IMG_SIZE = 224
NUM_CLASSES = 120

strategy = tf.distribute.MirroredStrategy()

(ds_train, ds_test), ds_info = tfds.load(
    "stanford_dogs", split=["train", "test"], with_info=True, as_supervised=True
)


def preprocess(image, label):
    image = tf.image.resize(image, (IMG_SIZE, IMG_SIZE))
    return image, tf.one_hot(label, NUM_CLASSES)


ds_train = ds_train.map(preprocess).batch(64, drop_remainder=True)  # expect: MG201
ds_test = ds_test.map(preprocess).batch(64, drop_remainder=True)  # expect: MG201

# Load the pretrained weights once, outside, "to save time"
backbone = keras.applications.EfficientNetB0(  # expect: MG101
    include_top=False, weights="imagenet", input_shape=(IMG_SIZE, IMG_SIZE, 3)
)
backbone.trainable = False

with strategy.scope():
    inputs = layers.Input(shape=(IMG_SIZE, IMG_SIZE, 3))
    x = backbone(inputs, training=False)
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Dropout(0.2, name="top_dropout")(x)
    outputs = layers.Dense(NUM_CLASSES, activation="softmax", name="pred")(x)
    model = keras.Model(inputs, outputs, name="EfficientNet")
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=1e-2),
        loss="categorical_crossentropy",
        metrics=["accuracy"],
    )

hist = model.fit(ds_train, epochs=25, validation_data=ds_test, verbose=2)
