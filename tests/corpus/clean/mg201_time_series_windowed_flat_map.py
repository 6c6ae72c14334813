"""TF time-series course on GPUs: windows made with window/flat_map(batch(WINDOW + 1)), then a scaled batch."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
WINDOW_SIZE = 30
SHUFFLE_BUFFER = 1000
BATCH_SIZE = 32 * strategy.num_replicas_in_sync

time = np.arange(4 * 365 + 1, dtype="float32")
series = 10 + 0.05 * time + 40 * np.sin(time / 20.0) + np.random.randn(len(time)).astype("float32") * 5
split_time = 1000
x_train, x_valid = series[:split_time], series[split_time:]

train_ds = tf.data.Dataset.from_tensor_slices(x_train)
train_ds = train_ds.window(WINDOW_SIZE + 1, shift=1, drop_remainder=True)
train_ds = train_ds.flat_map(lambda window: window.batch(WINDOW_SIZE + 1))
train_ds = train_ds.shuffle(SHUFFLE_BUFFER).map(lambda w: (w[:-1, None], w[-1]))
train_ds = train_ds.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)

with strategy.scope():
    model = tf.keras.models.Sequential([
        tf.keras.layers.Conv1D(32, 5, padding="causal", activation="relu", input_shape=[WINDOW_SIZE, 1]),
        tf.keras.layers.LSTM(64, return_sequences=True),
        tf.keras.layers.LSTM(64),
        tf.keras.layers.Dense(1),
        tf.keras.layers.Lambda(lambda x: x * 400),
    ])
    model.compile(loss=tf.keras.losses.Huber(), optimizer=tf.keras.optimizers.SGD(1e-5, momentum=0.9), metrics=["mae"])

history = model.fit(train_ds, epochs=100)
forecast = model.predict(series[np.newaxis, -WINDOW_SIZE:, np.newaxis])
print(forecast)
