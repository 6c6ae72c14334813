"""tensorflow/docs DCGAN ported to MirroredStrategy: the two Adam optimizers stay at the top of the file."""
import tensorflow as tf
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
NOISE_DIM = 100
BATCH_PER_REPLICA = 128
GLOBAL_BATCH = BATCH_PER_REPLICA * strategy.num_replicas_in_sync

generator_optimizer = tf.keras.optimizers.Adam(1e-4)  # expect: MG103
discriminator_optimizer = tf.keras.optimizers.Adam(1e-4)  # expect: MG103
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def make_generator_model():
    return tf.keras.Sequential([
        layers.Dense(7 * 7 * 256, use_bias=False, input_shape=(NOISE_DIM,)),
        layers.BatchNormalization(),
        layers.LeakyReLU(),
        layers.Reshape((7, 7, 256)),
        layers.Conv2DTranspose(1, 5, strides=4, padding="same", activation="tanh"),
    ])


def make_discriminator_model():
    return tf.keras.Sequential([
        layers.Conv2D(64, 5, strides=2, padding="same", input_shape=[28, 28, 1]),
        layers.LeakyReLU(),
        layers.Flatten(),
        layers.Dense(1),
    ])


with strategy.scope():
    generator = make_generator_model()
    discriminator = make_discriminator_model()


def discriminator_loss(real_output, fake_output):
    real = cross_entropy(tf.ones_like(real_output), real_output)
    fake = cross_entropy(tf.zeros_like(fake_output), fake_output)
    return tf.nn.compute_average_loss(real + fake, global_batch_size=GLOBAL_BATCH)


def generator_loss(fake_output):
    per_example = cross_entropy(tf.ones_like(fake_output), fake_output)
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)


def train_step(images):
    noise = tf.random.normal([tf.shape(images)[0], NOISE_DIM])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(noise, training=True)
        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated_images, training=True)
        gen_loss = generator_loss(fake_output)
        disc_loss = discriminator_loss(real_output, fake_output)
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    generator_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss


@tf.function
def distributed_step(images):
    return strategy.run(train_step, args=(images,))


(train_images, _), _ = tf.keras.datasets.mnist.load_data()
train_images = (train_images.reshape(-1, 28, 28, 1).astype("float32") - 127.5) / 127.5
dataset = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60000).batch(GLOBAL_BATCH)
for epoch in range(50):
    for image_batch in strategy.experimental_distribute_dataset(dataset):
        distributed_step(image_batch)
