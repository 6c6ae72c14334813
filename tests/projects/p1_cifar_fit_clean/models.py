"""Model factories. They never enter a strategy scope: the caller does."""
import tensorflow as tf
from tensorflow import keras


def conv_block(x, filters):
    x = keras.layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
    x = keras.layers.BatchNormalization()(x)
    return keras.layers.MaxPooling2D()(x)


def build_model(cfg):
    inputs = keras.Input((cfg.image_size, cfg.image_size, 3))
    x = inputs
    for filters in cfg.layers:
        x = conv_block(x, filters)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(cfg.num_classes)(x)
    return keras.Model(inputs, outputs, name="cifar_cnn")


def compile_model(model, cfg):
    model.compile(
        optimizer=keras.optimizers.Adam(cfg.learning_rate),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model
