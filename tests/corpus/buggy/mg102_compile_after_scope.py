import tensorflow as tf
from tensorflow.keras import layers, Sequential

IMG_SIZE = 160
strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

train_ds = tf.keras.utils.image_dataset_from_directory(
    "data/flowers/train", image_size=(IMG_SIZE, IMG_SIZE), batch_size=GLOBAL_BATCH
)
val_ds = tf.keras.utils.image_dataset_from_directory(
    "data/flowers/val", image_size=(IMG_SIZE, IMG_SIZE), batch_size=GLOBAL_BATCH
)
num_classes = len(train_ds.class_names)

with strategy.scope():
    model = Sequential([
        layers.Rescaling(1.0 / 255, input_shape=(IMG_SIZE, IMG_SIZE, 3)),
        layers.Conv2D(16, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(64, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Flatten(),
        layers.Dense(128, activation="relu"),
        layers.Dense(num_classes),
    ])

# compile is "just configuration", so it was left at top level
model.compile(  # expect: MG102
    optimizer="adam",
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)

history = model.fit(train_ds, validation_data=val_ds, epochs=10)
