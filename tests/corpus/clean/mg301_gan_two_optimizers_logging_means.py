"""Distributed DCGAN loop (tensorflow/docs generative/dcgan + custom_training): both optimizers in the
scope, losses with compute_average_loss; plain means only for the logged D(x)/D(G(z)) statistics."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync
LATENT = 128

with strategy.scope():
    gen = tf.keras.Sequential([tf.keras.Input((LATENT,)), tf.keras.layers.Dense(784, activation="tanh"),
                               tf.keras.layers.Reshape((28, 28, 1))])
    disc = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    g_opt = tf.keras.optimizers.Adam(2e-4, beta_1=0.5)
    d_opt = tf.keras.optimizers.Adam(2e-4, beta_1=0.5)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction="none")


def gan_step(real):
    z = tf.random.normal([tf.shape(real)[0], LATENT])
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = gen(z, training=True)
        real_logits, fake_logits = disc(real, training=True), disc(fake, training=True)
        d_loss = tf.nn.compute_average_loss(
            bce(tf.ones_like(real_logits), real_logits) + bce(tf.zeros_like(fake_logits), fake_logits),
            global_batch_size=GLOBAL_BATCH)
        g_loss = tf.nn.compute_average_loss(bce(tf.ones_like(fake_logits), fake_logits),
                                            global_batch_size=GLOBAL_BATCH)
    d_opt.apply_gradients(zip(d_tape.gradient(d_loss, disc.trainable_variables), disc.trainable_variables))
    g_opt.apply_gradients(zip(g_tape.gradient(g_loss, gen.trainable_variables), gen.trainable_variables))
    d_x = tf.reduce_mean(tf.sigmoid(real_logits))
    d_g_z = tf.reduce_mean(tf.sigmoid(fake_logits))
    return d_loss, g_loss, d_x, d_g_z


@tf.function
def train_step(real):
    d_loss, g_loss, d_x, d_g_z = strategy.run(gan_step, args=(real,))
    return (strategy.reduce("SUM", d_loss, axis=None), strategy.reduce("SUM", g_loss, axis=None),
            strategy.reduce("MEAN", d_x, axis=None), strategy.reduce("MEAN", d_g_z, axis=None))


(x, _), _ = tf.keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x[..., None].astype("float32") - 127.5) / 127.5)
for epoch in range(20):
    for real in strategy.experimental_distribute_dataset(ds.shuffle(60000).batch(GLOBAL_BATCH)):
        d, g, dx, dgz = train_step(real)
    print(epoch, float(d), float(g), float(dx), float(dgz))
