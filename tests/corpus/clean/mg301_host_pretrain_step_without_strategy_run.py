"""Host-side linear-autoencoder init (plain-mean tf.function step, raw variables), then fit under the strategy."""
import numpy as np
import tensorflow as tf

x = np.random.rand(20_000, 784).astype("float32")

# Warm start for the encoder kernel: a linear autoencoder fitted on one device, never given to strategy.run.
projection = tf.Variable(tf.random.normal([784, 64], stddev=0.01))
init_opt = tf.keras.optimizers.SGD(0.1)


@tf.function
def init_step(batch):
    with tf.GradientTape() as tape:
        reconstruction = tf.matmul(tf.matmul(batch, projection), projection, transpose_b=True)
        loss = tf.reduce_mean(tf.square(batch - reconstruction))
    grads = tape.gradient(loss, [projection])
    init_opt.apply_gradients(zip(grads, [projection]))
    return loss


for batch in tf.data.Dataset.from_tensor_slices(x[:5000]).batch(100):
    init_step(batch)
initial_kernel = projection.numpy()

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(784,)),
        tf.keras.layers.Dense(64, activation="relu", kernel_initializer=tf.keras.initializers.Constant(initial_kernel)),
        tf.keras.layers.Dense(784, activation="sigmoid"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss="binary_crossentropy")
model.fit(x, x, batch_size=256 * strategy.num_replicas_in_sync, epochs=10)
