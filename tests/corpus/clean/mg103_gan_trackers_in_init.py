"""Shape 9.7 (valid): metric trackers created in `__init__` of a model built inside the scope.

Style: keras-io examples/generative/dcgan_overriding_train_step.py (trackers made in
`compile()`/`__init__`, `metrics` property), with the GAN, its optimizers and
compile all under `strategy.scope()`. The trackers are created when the instance
is created, which is inside the scope.
"""
import tensorflow as tf
from tensorflow import keras


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer, self.g_optimizer, self.loss_fn = d_optimizer, g_optimizer, loss_fn


strategy = tf.distribute.MirroredStrategy()
latent_dim = 128
batch_size = 64 * strategy.num_replicas_in_sync
dataset = keras.utils.image_dataset_from_directory("celeba_gan", label_mode=None, image_size=(64, 64),
                                                   batch_size=batch_size)

with strategy.scope():
    discriminator = keras.Sequential([keras.Input(shape=(64, 64, 3)), keras.layers.Conv2D(64, 4, strides=2),
                                      keras.layers.Flatten(), keras.layers.Dense(1)])
    generator = keras.Sequential([keras.Input(shape=(latent_dim,)), keras.layers.Dense(8 * 8 * 128),
                                  keras.layers.Reshape((8, 8, 128)),
                                  keras.layers.Conv2DTranspose(3, 4, strides=8, padding="same")])
    gan = GAN(discriminator, generator, latent_dim)
    gan.compile(d_optimizer=keras.optimizers.Adam(1e-4), g_optimizer=keras.optimizers.Adam(1e-4),
                loss_fn=keras.losses.BinaryCrossentropy(from_logits=True))

gan.fit(dataset, epochs=1)
