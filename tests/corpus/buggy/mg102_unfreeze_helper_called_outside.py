import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.applications import EfficientNetB0

IMG_SIZE = 224
NUM_CLASSES = 120
EPOCHS = 10

strategy = tf.distribute.MirroredStrategy()
BATCH = 32 * strategy.num_replicas_in_sync


def build_model(num_classes):
    inputs = layers.Input(shape=(IMG_SIZE, IMG_SIZE, 3))
    model = EfficientNetB0(include_top=False, input_tensor=inputs, weights="imagenet")
    model.trainable = False
    x = layers.GlobalAveragePooling2D(name="avg_pool")(model.output)
    x = layers.BatchNormalization()(x)
    x = layers.Dropout(0.2, name="top_dropout")(x)
    outputs = layers.Dense(num_classes, activation="softmax", name="pred")(x)
    model = keras.Model(inputs, outputs, name="EfficientNet")
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=1e-2),
        loss="categorical_crossentropy",
        metrics=["accuracy"],
    )
    return model


def unfreeze_model(model):
    # Unfreeze the top 20 layers while leaving BatchNorm layers frozen.
    for layer in model.layers[-20:]:
        if not isinstance(layer, layers.BatchNormalization):
            layer.trainable = True
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=1e-4),
        loss="categorical_crossentropy",
        metrics=["accuracy"],
    )


ds_train = tf.data.Dataset.load("cache/dogs_train").batch(BATCH)
ds_test = tf.data.Dataset.load("cache/dogs_test").batch(BATCH)

with strategy.scope():
    model = build_model(num_classes=NUM_CLASSES)

hist = model.fit(ds_train, epochs=EPOCHS, validation_data=ds_test, verbose=2)

unfreeze_model(model)  # expect: MG102
hist = model.fit(ds_train, epochs=4, validation_data=ds_test, verbose=2)
