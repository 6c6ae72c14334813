"""Kaggle TPU notebook export with Keras Tuner: Hyperband built without distribution_strategy."""
import keras_tuner as kt
import tensorflow as tf


def get_strategy():
    try:
        tpu = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
        return tf.distribute.TPUStrategy(tpu)
    except ValueError:
        return tf.distribute.MirroredStrategy()


# In[2]:
strategy = get_strategy()
BATCH_SIZE = 32 * strategy.num_replicas_in_sync

(x_train, y_train), (x_val, y_val) = tf.keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(5000).batch(BATCH_SIZE)
val_ds = tf.data.Dataset.from_tensor_slices((x_val / 255.0, y_val)).batch(BATCH_SIZE)


# In[3]:
def model_builder(hp):
    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Flatten(input_shape=(32, 32, 3)))
    units = hp.Int("units", min_value=64, max_value=512, step=64)
    model.add(tf.keras.layers.Dense(units=units, activation="relu"))
    model.add(tf.keras.layers.Dropout(hp.Float("dropout", 0.0, 0.5, step=0.1)))
    model.add(tf.keras.layers.Dense(10))
    lr = hp.Choice("learning_rate", values=[1e-2, 1e-3, 1e-4])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=lr),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    return model


# In[4]:
tuner = kt.Hyperband(  # expect: MG106
    model_builder,
    objective="val_accuracy",
    max_epochs=10,
    factor=3,
    directory="/kaggle/working/kt",
    project_name="cifar_tpu",
)
stop_early = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=5)
tuner.search(train_ds, validation_data=val_ds, epochs=50, callbacks=[stop_early])
best_hps = tuner.get_best_hyperparameters(num_trials=1)[0]
print("best units:", best_hps.get("units"))
