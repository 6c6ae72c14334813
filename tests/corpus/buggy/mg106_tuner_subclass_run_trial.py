"""keras-tuner "Tune batch size" recipe (subclass overriding run_trial) in a multi-GPU script."""
import keras_tuner
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()  # expect: MG107


class BatchSizeTuner(keras_tuner.RandomSearch):
    def run_trial(self, trial, *args, **kwargs):
        hp = trial.hyperparameters
        kwargs["batch_size"] = hp.Choice("batch_size", [32, 64]) * strategy.num_replicas_in_sync
        return super().run_trial(trial, *args, **kwargs)


def build_model(hp):
    model = keras.Sequential([
        keras.layers.Flatten(),
        keras.layers.Dense(hp.Int("units", 32, 512, step=32), activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(hp.Float("lr", 1e-4, 1e-2, sampling="log")),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


tuner = BatchSizeTuner(  # expect: MG106
    hypermodel=build_model,
    objective="val_accuracy",
    max_trials=10,
    directory="tuning",
    project_name="batch_size",
)

(x_train, y_train), (x_val, y_val) = keras.datasets.mnist.load_data()
tuner.search(x_train / 255.0, y_train, validation_data=(x_val / 255.0, y_val), epochs=3)
print(tuner.get_best_hyperparameters()[0].values)
