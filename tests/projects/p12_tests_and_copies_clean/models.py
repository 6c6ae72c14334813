import tensorflow as tf


def augmentation():
    return tf.keras.Sequential([
        tf.keras.layers.RandomFlip("horizontal"),
        tf.keras.layers.RandomZoom(0.1),
        tf.keras.layers.Rescaling(1.0 / 255),
    ], name="augment")


def classifier(num_classes=10):
    inputs = tf.keras.Input((32, 32, 3))
    x = tf.keras.layers.Conv2D(16, 3, activation="relu")(inputs)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(num_classes)(x))


def host_metrics():
    return [tf.keras.metrics.AUC(name="auc"), tf.keras.metrics.Precision(name="precision")]
