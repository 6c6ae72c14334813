import keras_tuner as kt
import tensorflow as tf
from tensorflow import keras

(x_train, y_train), (x_val, y_val) = keras.datasets.fashion_mnist.load_data()
x_train, x_val = x_train / 255.0, x_val / 255.0


def build_model(hp):
    model = keras.Sequential()
    model.add(keras.layers.Flatten(input_shape=(28, 28)))
    for i in range(hp.Int("num_layers", 1, 3)):
        model.add(keras.layers.Dense(hp.Int(f"units_{i}", 32, 512, step=32), activation="relu"))
    model.add(keras.layers.Dense(10, activation="softmax"))
    model.compile(
        optimizer=keras.optimizers.Adam(hp.Choice("learning_rate", [1e-2, 1e-3, 1e-4])),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )
    return model


strategy = tf.distribute.MirroredStrategy()
tuner = kt.Hyperband(
    build_model,
    objective="val_accuracy",
    max_epochs=10,
    distribution_strategy=strategy,
    directory="kt_dir",
    project_name="fmnist",
)
tuner.search(x_train, y_train, epochs=10, validation_data=(x_val, y_val))

best_hps = tuner.get_best_hyperparameters(num_trials=1)[0]
# Retrain the best configuration on the full data.
model = build_model(best_hps)  # expect: MG101, MG102
model.fit(x_train, y_train, epochs=50, validation_split=0.2)  # expect: MG201
