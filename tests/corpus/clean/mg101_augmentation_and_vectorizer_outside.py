"""keras-io image_classification_from_scratch + text vectorizer: weightless and host-only layers outside."""
import keras
import tensorflow as tf
from keras import layers

strategy = tf.distribute.MirroredStrategy()
image_size = (180, 180)
batch_size = 64 * strategy.num_replicas_in_sync

train_ds, val_ds = keras.utils.image_dataset_from_directory(
    "PetImages", validation_split=0.2, subset="both", seed=1337, image_size=image_size, batch_size=batch_size,
)

data_augmentation_layers = [layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)]


def data_augmentation(images):
    for layer in data_augmentation_layers:
        images = layer(images)
    return images


augment = keras.Sequential([layers.RandomFlip("horizontal"), layers.RandomZoom(0.2), layers.Rescaling(1.0 / 255)])
train_ds = train_ds.map(lambda img, label: (data_augmentation(img), label), num_parallel_calls=tf.data.AUTOTUNE)
train_ds = train_ds.map(lambda img, label: (augment(img, training=True), label)).prefetch(tf.data.AUTOTUNE)

captions = tf.data.TextLineDataset("captions.txt")
vectorizer = layers.TextVectorization(max_tokens=20000, output_sequence_length=32)
vectorizer.adapt(captions.batch(1024))
caption_ds = captions.map(vectorizer)


def make_model(input_shape, num_classes):
    inputs = keras.Input(shape=input_shape)
    x = layers.Rescaling(1.0 / 255)(inputs)
    x = layers.Conv2D(128, 3, strides=2, padding="same", activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(1 if num_classes == 2 else num_classes, activation=None)(x)
    return keras.Model(inputs, outputs)


with strategy.scope():
    model = make_model(input_shape=image_size + (3,), num_classes=2)
    model.compile(
        optimizer=keras.optimizers.Adam(3e-4),
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy(name="acc")],
    )

callbacks = [keras.callbacks.ModelCheckpoint("save_at_{epoch}.keras")]
model.fit(train_ds, epochs=25, callbacks=callbacks, validation_data=val_ds)
