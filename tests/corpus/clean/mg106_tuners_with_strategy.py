"""MG106 (valid): tuners given `distribution_strategy=`, created inside or outside a scope.

Style: keras-team/keras-tuner distributed-tuning guide and public scripts
(`kt.Hyperband(hypermodel=build_model, ..., distribution_strategy=
tf.distribute.MirroredStrategy(), directory="results_dir")`, a tuner subclass given
the same strategy under `with strategy.scope():`). The best model is rebuilt inside
the scope.
"""
import keras_tuner as kt
import tensorflow as tf


def build_model(hp):
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(hp.Int("units", 32, 512, step=32), activation="relu"),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


class LoggingHyperband(kt.Hyperband):
    def on_trial_end(self, trial):
        print("trial", trial.trial_id, "done")
        super().on_trial_end(trial)


strategy = tf.distribute.MirroredStrategy()
mnist_train = tf.data.Dataset.load("mnist_train").shuffle(1000).batch(100 * strategy.num_replicas_in_sync)
mnist_test = tf.data.Dataset.load("mnist_test").batch(100 * strategy.num_replicas_in_sync)

tuner = kt.Hyperband(hypermodel=build_model, objective="val_accuracy", max_epochs=8, factor=2,
                     hyperband_iterations=3, distribution_strategy=tf.distribute.MirroredStrategy(),
                     directory="results_dir", project_name="mnist")
with strategy.scope():
    logged = LoggingHyperband(build_model, objective="val_accuracy", max_epochs=4,
                              distribution_strategy=strategy, directory="results_dir", project_name="logged")

tuner.search(mnist_train, validation_data=mnist_test, epochs=4)
logged.search(mnist_train, validation_data=mnist_test)
best_hps = tuner.get_best_hyperparameters(1)[0]
with strategy.scope():
    best = build_model(best_hps)
best.fit(mnist_train, epochs=10)
