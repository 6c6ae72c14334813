"""ResNet-style classifier; `create_model` builds and compiles in one go."""
import tensorflow as tf


def residual_unit(x, filters):
    shortcut = x
    x = tf.keras.layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
    x = tf.keras.layers.Conv2D(filters, 3, padding="same")(x)
    x = tf.keras.layers.Add()([shortcut, x])
    return tf.keras.layers.Activation("relu")(x)


def create_model(num_classes=10, lr=0.001):
    inputs = tf.keras.Input(shape=(64, 64, 3))
    x = tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu")(inputs)
    for _ in range(3):
        x = residual_unit(x, 32)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    outputs = tf.keras.layers.Dense(num_classes, activation="softmax")(x)
    model = tf.keras.Model(inputs=inputs, outputs=outputs)
    model.compile(optimizer=tf.keras.optimizers.SGD(lr, momentum=0.9),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def create_backbone(weights="imagenet"):
    return tf.keras.applications.MobileNetV2(include_top=False, weights=weights,
                                             input_shape=(224, 224, 3), pooling="avg")
