"""Shape 9.7 (invalid): metric trackers created as class attributes of a Model subclass.

Style: keras-io custom `train_step` examples (VAE, GAN) keep `loss_tracker =
keras.metrics.Mean(name="loss")` trackers; written as class attributes they are
created when the class statement runs at import, outside the scope, even though
the model instance is created inside it. MG103 at each tracker line.
"""
import tensorflow as tf
from tensorflow import keras


class VAE(keras.Model):
    total_loss_tracker = keras.metrics.Mean(name="total_loss")  # expect: MG103
    kl_loss_tracker = keras.metrics.Mean(name="kl_loss")  # expect: MG103

    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder

    @property
    def metrics(self):
        return [self.total_loss_tracker, self.kl_loss_tracker]

    def train_step(self, data):
        with tf.GradientTape() as tape:
            z_mean, z_log_var, z = self.encoder(data)
            recon = self.decoder(z)
            rec_loss = tf.reduce_mean(tf.reduce_sum(keras.losses.binary_crossentropy(data, recon), axis=(1, 2)))
            kl = -0.5 * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))
            kl_loss = tf.reduce_mean(tf.reduce_sum(kl, axis=1))
            total = rec_loss + kl_loss
        grads = tape.gradient(total, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        self.total_loss_tracker.update_state(total)
        self.kl_loss_tracker.update_state(kl_loss)
        return {m.name: m.result() for m in self.metrics}


def make_encoder(latent_dim):
    inputs = keras.Input(shape=(28, 28, 1))
    x = keras.layers.Flatten()(keras.layers.Conv2D(32, 3, strides=2, activation="relu")(inputs))
    z_mean = keras.layers.Dense(latent_dim)(x)
    z_log_var = keras.layers.Dense(latent_dim)(x)
    z = z_mean + tf.exp(0.5 * z_log_var) * tf.random.normal(tf.shape(z_mean))
    return keras.Model(inputs, [z_mean, z_log_var, z])


def make_decoder(latent_dim):
    return keras.Sequential([keras.Input(shape=(latent_dim,)), keras.layers.Dense(28 * 28, activation="sigmoid"),
                             keras.layers.Reshape((28, 28, 1))])


strategy = tf.distribute.MirroredStrategy()
(x_train, _), _ = keras.datasets.mnist.load_data()
x_train = x_train[..., None].astype("float32") / 255.0
with strategy.scope():
    vae = VAE(make_encoder(2), make_decoder(2))
    vae.compile(optimizer=keras.optimizers.Adam())
vae.fit(x_train, epochs=30, batch_size=128 * strategy.num_replicas_in_sync)
