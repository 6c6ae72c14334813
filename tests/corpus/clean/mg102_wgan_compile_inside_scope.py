"""WGAN-GP on Fashion-MNIST on all GPUs (keras-io wgan_gp style); everything stateful made under the strategy."""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
NOISE_DIM = 128
BATCH_SIZE = 64 * strategy.num_replicas_in_sync

(train_images, _), _ = keras.datasets.fashion_mnist.load_data()
train_images = (train_images.reshape(-1, 28, 28, 1).astype("float32") - 127.5) / 127.5
train_ds = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60_000).batch(BATCH_SIZE, drop_remainder=True)


def get_critic():
    img = layers.Input(shape=(28, 28, 1))
    x = layers.Conv2D(64, 5, strides=2, padding="same")(img)
    x = layers.LeakyReLU(0.2)(x)
    x = layers.Conv2D(128, 5, strides=2, padding="same")(x)
    x = layers.LeakyReLU(0.2)(x)
    x = layers.Flatten()(x)
    return keras.Model(img, layers.Dense(1)(x), name="critic")


def get_generator():
    noise = layers.Input(shape=(NOISE_DIM,))
    x = layers.Dense(7 * 7 * 128, use_bias=False)(noise)
    x = layers.Reshape((7, 7, 128))(layers.LeakyReLU(0.2)(layers.BatchNormalization()(x)))
    x = layers.Conv2DTranspose(64, 5, strides=2, padding="same")(x)
    x = layers.Conv2DTranspose(1, 5, strides=2, padding="same", activation="tanh")(x)
    return keras.Model(noise, x, name="generator")


class WGAN(keras.Model):
    def __init__(self, critic, generator, latent_dim, critic_extra_steps=3, gp_weight=10.0):
        super().__init__()
        self.critic = critic
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_steps = critic_extra_steps
        self.gp_weight = gp_weight

    def compile(self, d_optimizer, g_optimizer, d_loss_fn, g_loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.d_loss_fn = d_loss_fn
        self.g_loss_fn = g_loss_fn

    def gradient_penalty(self, batch_size, real, fake):
        alpha = tf.random.uniform([batch_size, 1, 1, 1])
        interpolated = real + alpha * (fake - real)
        with tf.GradientTape() as tape:
            tape.watch(interpolated)
            pred = self.critic(interpolated, training=True)
        grads = tape.gradient(pred, [interpolated])[0]
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]))
        return tf.reduce_mean((norm - 1.0) ** 2)

    def train_step(self, real_images):
        batch_size = tf.shape(real_images)[0]
        for _ in range(self.d_steps):
            z = tf.random.normal(shape=(batch_size, self.latent_dim))
            with tf.GradientTape() as tape:
                fake = self.generator(z, training=True)
                d_cost = self.d_loss_fn(self.critic(real_images, training=True), self.critic(fake, training=True))
                d_loss = d_cost + self.gp_weight * self.gradient_penalty(batch_size, real_images, fake)
            grads = tape.gradient(d_loss, self.critic.trainable_variables)
            self.d_optimizer.apply_gradients(zip(grads, self.critic.trainable_variables))
        z = tf.random.normal(shape=(batch_size, self.latent_dim))
        with tf.GradientTape() as tape:
            g_loss = self.g_loss_fn(self.critic(self.generator(z, training=True), training=True))
        grads = tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_variables))
        return {"d_loss": d_loss, "g_loss": g_loss}


def discriminator_loss(real_img, fake_img):
    return tf.reduce_mean(fake_img) - tf.reduce_mean(real_img)


def generator_loss(fake_img):
    return -tf.reduce_mean(fake_img)


class GANMonitor(keras.callbacks.Callback):
    def __init__(self, num_img=6):
        super().__init__()
        self.num_img = num_img

    def on_epoch_end(self, epoch, logs=None):
        z = tf.random.normal(shape=(self.num_img, NOISE_DIM))
        images = self.model.generator(z) * 127.5 + 127.5
        for i in range(self.num_img):
            keras.utils.save_img(f"generated_img_{i}_{epoch}.png", images[i].numpy())


with strategy.scope():
    wgan = WGAN(critic=get_critic(), generator=get_generator(), latent_dim=NOISE_DIM)
    wgan.compile(
        d_optimizer=keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9),
        g_optimizer=keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9),
        d_loss_fn=discriminator_loss,
        g_loss_fn=generator_loss,
    )

wgan.fit(train_ds, epochs=20, callbacks=[GANMonitor(num_img=3)])
wgan.generator.save("wgan_generator.keras")
