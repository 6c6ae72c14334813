"""tensorflow/docs keras_tuner tutorial on one GPU: memory growth, objects and literal batches, no strategy."""
import keras_tuner as kt
import tensorflow as tf
from tensorflow import keras

gpus = tf.config.list_physical_devices("GPU")
if gpus:
    tf.config.experimental.set_memory_growth(gpus[0], True)
    tf.config.set_visible_devices(gpus[0], "GPU")

(img_train, label_train), (img_test, label_test) = keras.datasets.fashion_mnist.load_data()
img_train = img_train.astype("float32") / 255.0
img_test = img_test.astype("float32") / 255.0
train_ds = tf.data.Dataset.from_tensor_slices((img_train, label_train)).shuffle(60000).batch(32)
val_ds = tf.data.Dataset.from_tensor_slices((img_test, label_test)).batch(256)


def model_builder(hp):
    model = keras.Sequential()
    model.add(keras.layers.Flatten(input_shape=(28, 28)))
    hp_units = hp.Int("units", min_value=32, max_value=512, step=32)
    model.add(keras.layers.Dense(units=hp_units, activation="relu"))
    model.add(keras.layers.Dense(10))
    hp_learning_rate = hp.Choice("learning_rate", values=[1e-2, 1e-3, 1e-4])
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=hp_learning_rate),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model


tuner = kt.Hyperband(model_builder, objective="val_sparse_categorical_accuracy", max_epochs=10, factor=3,
                     directory="my_dir", project_name="intro_to_kt")
stop_early = keras.callbacks.EarlyStopping(monitor="val_loss", patience=5)
tuner.search(train_ds, epochs=50, validation_data=val_ds, callbacks=[stop_early])

best_hps = tuner.get_best_hyperparameters(num_trials=1)[0]
model = tuner.hypermodel.build(best_hps)
history = model.fit(img_train, label_train, epochs=50, validation_split=0.2)
model.save("best.keras")
reloaded = keras.models.load_model("best.keras")
reloaded.evaluate(img_test, label_test, batch_size=512)
