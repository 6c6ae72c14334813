import keras_tuner as kt
import tensorflow as tf


def build_model(hp):
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(hp.Int("units", 32, 256, step=32), activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(hp.Choice("lr", [1e-2, 1e-3])),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


tuner = kt.Hyperband(build_model, objective="val_accuracy", max_epochs=10,
                     distribution_strategy=tf.distribute.MirroredStrategy(),
                     directory="tuning", project_name="mnist")
