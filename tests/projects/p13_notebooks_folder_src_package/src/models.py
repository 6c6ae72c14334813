import tensorflow as tf


def unet_lite(input_shape=(128, 128, 3)):
    inputs = tf.keras.Input(input_shape)
    c1 = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")(inputs)
    p1 = tf.keras.layers.MaxPooling2D()(c1)
    c2 = tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu")(p1)
    u1 = tf.keras.layers.UpSampling2D()(c2)
    merged = tf.keras.layers.Concatenate()([u1, c1])
    outputs = tf.keras.layers.Conv2D(1, 1, activation="sigmoid")(merged)
    return tf.keras.Model(inputs, outputs)
