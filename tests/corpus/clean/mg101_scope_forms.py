"""Different spellings of entering the strategy scope."""
import contextlib

import tensorflow as tf
from tensorflow.keras import layers, Sequential

strategy = tf.distribute.MirroredStrategy()
per_replica = 128
global_batch = per_replica * strategy.num_replicas_in_sync
writer = tf.summary.create_file_writer("logs/scope_forms")

scope = strategy.scope()
with scope:
    encoder = Sequential([layers.Dense(64, activation="relu"), layers.Dense(16)], name="encoder")

with tf.device("/cpu:0"), strategy.scope():
    decoder = Sequential([layers.Dense(64, activation="relu"), layers.Dense(784)], name="decoder")

with contextlib.ExitStack() as stack, strategy.scope() as active_strategy:
    stack.enter_context(writer.as_default())
    inputs = tf.keras.Input(shape=(784,))
    autoencoder = tf.keras.Model(inputs, decoder(encoder(inputs)))
    autoencoder.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")
    print("building under", type(active_strategy).__name__)

(x_train, _), _ = tf.keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
ds = tf.data.Dataset.from_tensor_slices((x_train, x_train)).shuffle(60000).batch(global_batch)
autoencoder.fit(ds, epochs=10)
