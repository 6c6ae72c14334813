"""Shape 9.3 (invalid): `from os.path import *` beside `import tensorflow as tf` must not silence the file.

Style: older university course scripts that star-import path helpers
(`from os.path import *`) and build a tf.keras model for a flowers folder. The
star import can only supply os.path names; `tf`, `strategy` and the model are
still known, and the model is built and compiled outside the scope.
"""
from os.path import *

import tensorflow as tf

DATA_DIR = join(expanduser("~"), "datasets", "flower_photos")
IMG = (180, 180)

strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync

train_ds = tf.keras.utils.image_dataset_from_directory(
    DATA_DIR, validation_split=0.2, subset="training", seed=123, image_size=IMG, batch_size=batch_size)
val_ds = tf.keras.utils.image_dataset_from_directory(
    DATA_DIR, validation_split=0.2, subset="validation", seed=123, image_size=IMG, batch_size=batch_size)

model = tf.keras.Sequential([  # expect: MG101
    tf.keras.layers.Rescaling(1.0 / 255, input_shape=IMG + (3,)),
    tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(128, activation="relu"),
    tf.keras.layers.Dense(5),
])
model.compile(optimizer="adam",  # expect: MG102
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
model.fit(train_ds, validation_data=val_ds, epochs=10)
model.save(join(dirname(DATA_DIR), "flowers.keras"))
