"""keras-io generative/wgan_gp.py on GPUs: compile override, optimizers inline, callback and losses outside."""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
IMG_SHAPE = (28, 28, 1)
BATCH_SIZE = 512 * strategy.num_replicas_in_sync
noise_dim = 128


def discriminator_loss(real_img, fake_img):
    return tf.reduce_mean(fake_img) - tf.reduce_mean(real_img)


def generator_loss(fake_img):
    return -tf.reduce_mean(fake_img)


class WGAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim, discriminator_extra_steps=3, gp_weight=10.0):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_steps = discriminator_extra_steps
        self.gp_weight = gp_weight

    def compile(self, d_optimizer, g_optimizer, d_loss_fn, g_loss_fn):
        super().compile()
        self.d_optimizer, self.g_optimizer = d_optimizer, g_optimizer
        self.d_loss_fn, self.g_loss_fn = d_loss_fn, g_loss_fn

    def train_step(self, real_images):
        batch_size = tf.shape(real_images)[0]
        for _ in range(self.d_steps):
            random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
            with tf.GradientTape() as tape:
                fake_images = self.generator(random_latent_vectors, training=True)
                d_cost = self.d_loss_fn(self.discriminator(real_images, training=True),
                                        self.discriminator(fake_images, training=True))
            d_gradient = tape.gradient(d_cost, self.discriminator.trainable_variables)
            self.d_optimizer.apply_gradients(zip(d_gradient, self.discriminator.trainable_variables))
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
        with tf.GradientTape() as tape:
            g_loss = self.g_loss_fn(self.discriminator(self.generator(random_latent_vectors, training=True), training=True))
        gen_gradient = tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_optimizer.apply_gradients(zip(gen_gradient, self.generator.trainable_variables))
        return {"d_loss": d_cost, "g_loss": g_loss}


class GANMonitor(keras.callbacks.Callback):
    def __init__(self, num_img=6, latent_dim=128):
        self.num_img, self.latent_dim = num_img, latent_dim

    def on_epoch_end(self, epoch, logs=None):
        images = self.model.generator(tf.random.normal(shape=(self.num_img, self.latent_dim)))
        print(epoch, images.shape)


with strategy.scope():
    d_model = keras.Sequential([layers.Input(IMG_SHAPE), layers.Conv2D(64, 5, strides=2), layers.Flatten(), layers.Dense(1)])
    g_model = keras.Sequential([layers.Input((noise_dim,)), layers.Dense(28 * 28), layers.Reshape(IMG_SHAPE)])
    wgan = WGAN(discriminator=d_model, generator=g_model, latent_dim=noise_dim)
    wgan.compile(
        d_optimizer=keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9),
        g_optimizer=keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9),
        g_loss_fn=generator_loss,
        d_loss_fn=discriminator_loss,
    )

(train_images, _), _ = keras.datasets.fashion_mnist.load_data()
train_images = (train_images.reshape(-1, 28, 28, 1).astype("float32") - 127.5) / 127.5
dataset = tf.data.Dataset.from_tensor_slices(train_images).shuffle(60000).batch(BATCH_SIZE, drop_remainder=True)
wgan.fit(dataset, epochs=20, callbacks=[GANMonitor(num_img=3, latent_dim=noise_dim)])
