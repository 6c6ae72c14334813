"""DCGAN on MirroredStrategy done right: noise sized per replica, losses scaled by the global batch."""
import tensorflow as tf
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
NOISE_DIM = 100
BATCH_PER_REPLICA = 64
GLOBAL_BATCH = BATCH_PER_REPLICA * strategy.num_replicas_in_sync
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def make_generator():
    return tf.keras.Sequential([
        layers.Dense(7 * 7 * 128, use_bias=False, input_shape=(NOISE_DIM,)),
        layers.BatchNormalization(),
        layers.LeakyReLU(),
        layers.Reshape((7, 7, 128)),
        layers.Conv2DTranspose(1, 5, strides=4, padding="same", activation="tanh"),
    ])


def make_discriminator():
    return tf.keras.Sequential([
        layers.Conv2D(64, 5, strides=2, padding="same", input_shape=[28, 28, 1]),
        layers.LeakyReLU(),
        layers.Flatten(),
        layers.Dense(1),
    ])


with strategy.scope():
    generator = make_generator()
    discriminator = make_discriminator()
    generator_optimizer = tf.keras.optimizers.Adam(1e-4, beta_1=0.5)
    discriminator_optimizer = tf.keras.optimizers.Adam(1e-4, beta_1=0.5)
    gen_loss_tracker = tf.keras.metrics.Mean(name="generator_loss")


def train_step(images):
    noise = tf.random.normal([BATCH_PER_REPLICA, NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_output = discriminator(images, training=True)
        fake_output = discriminator(fake, training=True)
        gen_loss = tf.nn.compute_average_loss(
            cross_entropy(tf.ones_like(fake_output), fake_output), global_batch_size=GLOBAL_BATCH)
        per_example_disc = (cross_entropy(tf.ones_like(real_output), real_output)
                            + cross_entropy(tf.zeros_like(fake_output), fake_output))
        disc_loss = tf.nn.compute_average_loss(per_example_disc, global_batch_size=GLOBAL_BATCH)
    generator_optimizer.apply_gradients(zip(gen_tape.gradient(gen_loss, generator.trainable_variables),
                                            generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(disc_tape.gradient(disc_loss, discriminator.trainable_variables),
                                                discriminator.trainable_variables))
    gen_loss_tracker.update_state(gen_loss * strategy.num_replicas_in_sync)
    return disc_loss


@tf.function
def distributed_train_step(images):
    per_replica = strategy.run(train_step, args=(images,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


(train_images, _), _ = tf.keras.datasets.mnist.load_data()
train_images = (train_images.reshape(-1, 28, 28, 1).astype("float32") - 127.5) / 127.5
dataset = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60000).batch(GLOBAL_BATCH, drop_remainder=True)
for epoch in range(50):
    for batch in strategy.experimental_distribute_dataset(dataset):
        distributed_train_step(batch)
    print(epoch, gen_loss_tracker.result().numpy())
    gen_loss_tracker.reset_state()
