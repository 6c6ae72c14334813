"""tensorflow/docs generative/dcgan written as a distributed loop; the discriminator half was added later
and copied from the single-GPU notebook."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_PER_REPLICA = 64
GLOBAL_BATCH = BATCH_PER_REPLICA * strategy.num_replicas_in_sync
NOISE_DIM = 100

with strategy.scope():
    generator = tf.keras.Sequential([tf.keras.layers.Dense(7 * 7 * 64, input_shape=(NOISE_DIM,)),
                                     tf.keras.layers.Reshape((7, 7, 64)),
                                     tf.keras.layers.Conv2DTranspose(1, 4, strides=4, activation="tanh")])
    discriminator = tf.keras.Sequential([tf.keras.layers.Conv2D(64, 5, strides=2, input_shape=(28, 28, 1)),
                                         tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    generator_optimizer = tf.keras.optimizers.Adam(1e-4)
    cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

discriminator_optimizer = tf.keras.optimizers.Adam(1e-4)  # expect: MG103


def train_step(images):
    noise = tf.random.normal([tf.shape(images)[0], NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_output = discriminator(images, training=True)
        fake_output = discriminator(fake, training=True)
        gen_loss = tf.nn.compute_average_loss(cross_entropy(tf.ones_like(fake_output), fake_output),
                                              global_batch_size=GLOBAL_BATCH)
        disc_loss = (tf.reduce_mean(cross_entropy(tf.ones_like(real_output), real_output))  # expect: MG301
                     + tf.reduce_mean(cross_entropy(tf.zeros_like(fake_output), fake_output)))  # expect: MG301
    generator_optimizer.apply_gradients(
        zip(gen_tape.gradient(gen_loss, generator.trainable_variables), generator.trainable_variables))
    discriminator_optimizer.apply_gradients(
        zip(disc_tape.gradient(disc_loss, discriminator.trainable_variables), discriminator.trainable_variables))
    return gen_loss, disc_loss


@tf.function
def distributed_train_step(batch):
    g, d = strategy.run(train_step, args=(batch,))
    return strategy.reduce("SUM", g, axis=None), strategy.reduce("SUM", d, axis=None)


(train_images, _), _ = tf.keras.datasets.mnist.load_data()
train_images = (train_images.reshape(-1, 28, 28, 1).astype("float32") - 127.5) / 127.5
ds = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60000).batch(GLOBAL_BATCH)
for epoch in range(50):
    for batch in strategy.experimental_distribute_dataset(ds):
        g_loss, d_loss = distributed_train_step(batch)
