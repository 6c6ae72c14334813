import tensorflow as tf
from tensorflow.distribute import MirroredStrategy as MS

strategy = MS(devices=["/gpu:0", "/gpu:1", "/gpu:2", "/gpu:3"])
scope = strategy.scope()

BATCH = 32 * strategy.num_replicas_in_sync
(x, y), _ = tf.keras.datasets.boston_housing.load_data()
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(512).batch(BATCH).repeat()

with scope:
    regressor = tf.keras.Sequential([
        tf.keras.layers.Normalization(axis=-1),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    regressor.layers[0].adapt(x)

regressor.compile(optimizer=tf.keras.optimizers.RMSprop(0.001), loss="mse", metrics=["mae"])  # expect: MG102
regressor.fit(ds, epochs=50, steps_per_epoch=len(x) // BATCH)
