"""MG106 (valid): a tuner in a file with no strategy at all.

Style: the keras-tuner README / TF "Introduction to the Keras Tuner" tutorial
(`tuner = kt.Hyperband(model_builder, objective='val_accuracy', max_epochs=10,
factor=3)`). Single-device search: no strategy is in play, nothing to report.
"""
import keras_tuner as kt
import tensorflow as tf


def model_builder(hp):
    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Flatten(input_shape=(28, 28)))
    model.add(tf.keras.layers.Dense(units=hp.Int("units", min_value=32, max_value=512, step=32), activation="relu"))
    model.add(tf.keras.layers.Dense(10))
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=hp.Choice("learning_rate", [1e-2, 1e-3, 1e-4])),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


(img_train, label_train), (img_test, label_test) = tf.keras.datasets.fashion_mnist.load_data()
img_train, img_test = img_train / 255.0, img_test / 255.0

tuner = kt.Hyperband(model_builder, objective="val_accuracy", max_epochs=10, factor=3,
                     directory="my_dir", project_name="intro_to_kt")
stop_early = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=5)
tuner.search(img_train, label_train, epochs=50, validation_split=0.2, callbacks=[stop_early])

best_hps = tuner.get_best_hyperparameters(num_trials=1)[0]
model = tuner.hypermodel.build(best_hps)
model.fit(img_train, label_train, epochs=50, validation_split=0.2)
