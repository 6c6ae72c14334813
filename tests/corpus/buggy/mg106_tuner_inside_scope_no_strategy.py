"""MG106 (invalid): a Keras Tuner tuner created inside `strategy.scope()` without `distribution_strategy=`.

Style: public hyper-parameter search scripts that wrap the tuner in the scope
(e.g. a hydra-configured `MyHyperband(...)` under `with strategy.scope():`, and
the keras-team/keras-tuner distributed-tuning docs for the right way). `search()`
builds every trial's model itself, outside any scope: MG106 at each tuner.
"""
import keras_tuner as kt
import tensorflow as tf


def build_model(hp):
    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Flatten(input_shape=(28, 28)))
    for i in range(hp.Int("num_layers", 1, 3)):
        model.add(tf.keras.layers.Dense(hp.Int(f"units_{i}", 32, 512, step=32), activation="relu"))
    model.add(tf.keras.layers.Dense(10, activation="softmax"))
    model.compile(optimizer=tf.keras.optimizers.Adam(hp.Choice("lr", [1e-2, 1e-3, 1e-4])),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


class MyHyperband(kt.Hyperband):
    def run_trial(self, trial, *args, **kwargs):
        kwargs["batch_size"] = trial.hyperparameters.Choice("batch_size", [64, 128])
        return super().run_trial(trial, *args, **kwargs)


(x_train, y_train), (x_val, y_val) = tf.keras.datasets.mnist.load_data()
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    tuner = kt.RandomSearch(  # expect: MG106
        build_model,
        objective="val_accuracy",
        max_trials=10,
        directory="kt_dir",
        project_name="mnist_random",
    )
    hyperband = MyHyperband(build_model, objective="val_accuracy", max_epochs=10, directory="kt_dir")  # expect: MG106

tuner.search(x_train, y_train, epochs=5, validation_data=(x_val, y_val))
hyperband.search(x_train, y_train, validation_data=(x_val, y_val))
