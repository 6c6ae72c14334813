"""models.py -- model factories shared by the training scripts.

This module only defines builders; the training entry points call them under
their strategy scope.  No strategy exists here.
"""
from tensorflow import keras
from tensorflow.keras import layers


def mlp(input_dim, hidden=(256, 128), num_classes=10, dropout=0.1):
    inputs = keras.Input(shape=(input_dim,))
    x = inputs
    for units in hidden:
        x = layers.Dense(units, activation="relu")(x)
        x = layers.Dropout(dropout)(x)
    return keras.Model(inputs, layers.Dense(num_classes)(x), name="mlp")


def small_cnn(num_classes=10):
    return keras.Sequential([
        layers.Conv2D(32, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(64, 3, activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(num_classes),
    ], name="small_cnn")


def pretrained(name="resnet50", num_classes=10, image_size=224):
    ctor = {
        "resnet50": keras.applications.ResNet50,
        "efficientnet": keras.applications.EfficientNetB0,
    }[name]
    base = ctor(include_top=False, weights="imagenet", input_shape=(image_size, image_size, 3), pooling="avg")
    outputs = layers.Dense(num_classes)(base.output)
    return keras.Model(base.input, outputs, name=f"{name}_ft")


def compile_for_classification(model, lr=1e-3):
    model.compile(
        optimizer=keras.optimizers.Adam(lr),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    return model


REGISTRY = {"mlp": mlp, "small_cnn": small_cnn, "pretrained": pretrained}
