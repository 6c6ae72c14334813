"""Objects that hold no variables may be created anywhere: loss objects, LR schedules,
callbacks, initializers, regularizers; optimizers and metrics given as strings are
resolved by compile() itself, inside the scope."""
import tensorflow as tf
from tensorflow import keras

loss_fn = keras.losses.CategoricalCrossentropy(label_smoothing=0.1)
focal = keras.losses.BinaryFocalCrossentropy(gamma=2.0)
lr_schedule = keras.optimizers.schedules.CosineDecay(initial_learning_rate=1e-3, decay_steps=10_000)
init = keras.initializers.HeNormal()
reg = keras.regularizers.L2(1e-4)
callbacks = [
    keras.callbacks.EarlyStopping(monitor="val_loss", patience=5, restore_best_weights=True),
    keras.callbacks.ReduceLROnPlateau(factor=0.5, patience=2),
    keras.callbacks.CSVLogger("history.csv"),
]

strategy = tf.distribute.MirroredStrategy()
BATCH = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    inputs = keras.Input(shape=(64,))
    h = keras.layers.Dense(128, activation="relu", kernel_initializer=init, kernel_regularizer=reg)(inputs)
    cls = keras.layers.Dense(5, activation="softmax", name="cls")(h)
    flag = keras.layers.Dense(1, activation="sigmoid", name="flag")(h)
    model = keras.Model(inputs, [cls, flag])
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=lr_schedule),
        loss={"cls": loss_fn, "flag": focal},
        metrics={"cls": ["accuracy"], "flag": ["AUC"]},
    )

simple = None
with strategy.scope():
    simple = keras.Sequential([keras.layers.Dense(1)])
    simple.compile("sgd", "mse", metrics=["mae"])

ds = tf.data.Dataset.load("multitask").shuffle(4096).batch(BATCH)
val = tf.data.Dataset.load("multitask_val").batch(BATCH)
model.fit(ds, validation_data=val, epochs=50, callbacks=callbacks)
