"""Tuning script that keeps the tuner's settings in a dict, distribution_strategy included."""
import keras_tuner as kt
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 64 * strategy.num_replicas_in_sync

TUNER_KWARGS = dict(
    objective="val_accuracy",
    max_epochs=12,
    factor=3,
    directory="tuning",
    project_name="fashion",
    distribution_strategy=strategy,
)


def build(hp):
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(hp.Int("units", 64, 512, step=64), activation="relu"),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(hp.Choice("lr", [1e-2, 1e-3])),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


(x, y), (x_val, y_val) = tf.keras.datasets.fashion_mnist.load_data()
tuner = kt.Hyperband(build, **TUNER_KWARGS)
tuner.search(x / 255.0, y, batch_size=BATCH, validation_data=(x_val / 255.0, y_val))
print(tuner.get_best_hyperparameters(1)[0].values)
