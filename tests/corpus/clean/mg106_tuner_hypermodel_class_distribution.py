"""keras-tuner distributed tuning guide: HyperModel class, distribution_strategy=, best model rebuilt in scope."""
import keras_tuner as kt
import numpy as np
import tensorflow as tf


class CNNHyperModel(kt.HyperModel):
    def build(self, hp):
        inputs = tf.keras.Input(shape=(28, 28, 1))
        x = inputs
        for i in range(hp.Int("conv_layers", 1, 3, default=2)):
            x = tf.keras.layers.Conv2D(hp.Int(f"filters_{i}", 32, 128, step=32), 3, activation="relu")(x)
        x = tf.keras.layers.GlobalAveragePooling2D()(x)
        outputs = tf.keras.layers.Dense(10, activation="softmax")(x)
        model = tf.keras.Model(inputs, outputs)
        model.compile(
            optimizer=tf.keras.optimizers.Adam(hp.Float("learning_rate", 1e-4, 1e-2, sampling="log")),
            loss="sparse_categorical_crossentropy",
            metrics=["accuracy"],
        )
        return model


strategy = tf.distribute.MirroredStrategy()
BATCH = 64 * strategy.num_replicas_in_sync
(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
x_train = np.expand_dims(x_train, -1).astype("float32") / 255.0
x_test = np.expand_dims(x_test, -1).astype("float32") / 255.0

hypermodel = CNNHyperModel()
tuner = kt.Hyperband(
    hypermodel,
    objective="val_accuracy",
    max_epochs=8,
    factor=2,
    hyperband_iterations=2,
    distribution_strategy=strategy,
    directory="results_dir",
    project_name="mnist",
)
tuner.search(x_train, y_train, batch_size=BATCH, epochs=8, validation_data=(x_test, y_test))

best_hps = tuner.get_best_hyperparameters(1)[0]
with strategy.scope():
    best_model = hypermodel.build(best_hps)
best_model.fit(x_train, y_train, batch_size=BATCH, epochs=20, validation_split=0.1)
best_model.evaluate(x_test, y_test, batch_size=BATCH)
