"""Keras Tuner subclass that forwards the strategy to the base tuner (HPO helper modules); the
construction site has no `distribution_strategy=` keyword, the subclass supplies it."""
import keras_tuner as kt
import tensorflow as tf


class DistributedHyperband(kt.Hyperband):
    def __init__(self, hypermodel, strategy, **kwargs):
        super().__init__(hypermodel, distribution_strategy=strategy, **kwargs)


def build_model(hp):
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(hp.Int("units", min_value=32, max_value=512, step=32), activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(hp.Choice("learning_rate", [1e-2, 1e-3, 1e-4])),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    return model


strategy = tf.distribute.MirroredStrategy()
BATCH = 64 * strategy.num_replicas_in_sync
tuner = DistributedHyperband(build_model, strategy, objective="val_accuracy", max_epochs=10, factor=3,
                             directory="my_dir", project_name="intro_to_kt")
(img_train, label_train), (img_test, label_test) = tf.keras.datasets.fashion_mnist.load_data()
stop_early = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=5)
tuner.search(img_train / 255.0, label_train, batch_size=BATCH, epochs=50, validation_split=0.2,
             callbacks=[stop_early])
best_hps = tuner.get_best_hyperparameters(num_trials=1)[0]
with strategy.scope():
    model = tuner.hypermodel.build(best_hps)
model.fit(img_train / 255.0, label_train, batch_size=BATCH, epochs=10, validation_split=0.2)
