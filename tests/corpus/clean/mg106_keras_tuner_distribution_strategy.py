"""Hyperparameter search on several GPUs with KerasTuner."""
import keras_tuner
import tensorflow as tf
from tensorflow import keras


def build_model(hp):
    model = keras.Sequential()
    model.add(keras.layers.Flatten())
    model.add(keras.layers.Dense(
        units=hp.Int("units", min_value=32, max_value=512, step=32),
        activation=hp.Choice("activation", ["relu", "tanh"]),
    ))
    if hp.Boolean("dropout"):
        model.add(keras.layers.Dropout(rate=0.25))
    model.add(keras.layers.Dense(10, activation="softmax"))
    learning_rate = hp.Float("lr", min_value=1e-4, max_value=1e-2, sampling="log")
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=learning_rate),
        loss="categorical_crossentropy",
        metrics=["accuracy"],
    )
    return model


(x, y), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train, x_val = x[:-10000] / 255.0, x[-10000:] / 255.0
y_train = keras.utils.to_categorical(y[:-10000], 10)
y_val = keras.utils.to_categorical(y[-10000:], 10)

tuner = keras_tuner.RandomSearch(
    hypermodel=build_model,
    objective="val_accuracy",
    max_trials=10,
    executions_per_trial=2,
    overwrite=True,
    distribution_strategy=tf.distribute.MirroredStrategy(),
    directory="my_dir",
    project_name="helloworld",
)
tuner.search_space_summary()
tuner.search(x_train, y_train, epochs=2, validation_data=(x_val, y_val))
models = tuner.get_best_models(num_models=2)
best_model = models[0]
best_model.summary()
tuner.results_summary()
