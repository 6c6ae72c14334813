"""Transfer learning + fine-tuning, both phases compiled under the strategy."""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

IMG_SIZE = (160, 160)
strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 32 * strategy.num_replicas_in_sync

train_dataset = keras.utils.image_dataset_from_directory(
    "cats_and_dogs_filtered/train", shuffle=True, batch_size=BATCH_SIZE, image_size=IMG_SIZE)
validation_dataset = keras.utils.image_dataset_from_directory(
    "cats_and_dogs_filtered/validation", shuffle=True, batch_size=BATCH_SIZE, image_size=IMG_SIZE)

with strategy.scope():
    base_model = keras.applications.MobileNetV2(input_shape=IMG_SIZE + (3,), include_top=False,
                                                weights="imagenet")
    base_model.trainable = False
    inputs = keras.Input(shape=IMG_SIZE + (3,))
    x = keras.applications.mobilenet_v2.preprocess_input(inputs)
    x = base_model(x, training=False)
    x = layers.GlobalAveragePooling2D()(x)
    x = layers.Dropout(0.2)(x)
    outputs = layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-4),
                  loss=keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=[keras.metrics.BinaryAccuracy(threshold=0.0, name="accuracy")])

history = model.fit(train_dataset, epochs=10, validation_data=validation_dataset)

base_model.trainable = True
for layer in base_model.layers[:100]:
    layer.trainable = False

with strategy.scope():
    model.compile(loss=keras.losses.BinaryCrossentropy(from_logits=True),
                  optimizer=keras.optimizers.RMSprop(learning_rate=1e-5),
                  metrics=[keras.metrics.BinaryAccuracy(threshold=0.0, name="accuracy")])

history_fine = model.fit(train_dataset, epochs=20, initial_epoch=history.epoch[-1],
                         validation_data=validation_dataset)
