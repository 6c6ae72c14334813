"""Config-driven trainer: optimizer and metric objects resolved with keras getters at import time."""
import tensorflow as tf

CONFIG = {
    "optimizer": {"class_name": "Adam", "config": {"learning_rate": 3e-4}},
    "metric": "AUC",
    "batch_per_replica": 128,
    "epochs": 5,
}

strategy = tf.distribute.MirroredStrategy()
optimizer = tf.keras.optimizers.get(CONFIG["optimizer"])  # expect: MG103
auc = tf.keras.metrics.get(CONFIG["metric"])  # expect: MG103


def model_fn():
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(32,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])


x = tf.random.normal((4096, 32))
y = tf.cast(tf.reduce_mean(x, axis=1) > 0, tf.float32)
global_batch = CONFIG["batch_per_replica"] * strategy.num_replicas_in_sync
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(4096).batch(global_batch)

with strategy.scope():
    model = model_fn()
    model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=[auc])
model.fit(ds, epochs=CONFIG["epochs"])
