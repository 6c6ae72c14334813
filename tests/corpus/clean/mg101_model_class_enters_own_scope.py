"""Clean (MG101/MG102, issue 17): classes whose `__init__` and `compile()` enter `self.strategy.scope()` themselves.

Shapes of a progressive-GAN VAE trainer (`class PGVAE: __init__` makes
`self.strategy = tf.distribute.MirroredStrategy()` and builds its networks in
`with self.strategy.scope():`), a TD3 agent (`self.strategy = get_device_strategy()`, networks
and optimizers in the scope in `__init__`), and the tf-keras `Model` internals copied into
microsoft/nni (src/sdk/pynni/nni/nas/tensorflow/draft/model.py: `compile` runs inside
`with self.distribute_strategy.scope():`). Every variable is made in a scope the class enters.
Measured (Keras 3.15, TF 2.21, 2 CPU replicas): `DistributedRegressor` as written trains with every
weight and optimizer variable mirrored; with `super().__init__()` moved out of the `with`, `fit`
fails with 'Need to be inside "with strategy.scope()"' (the model itself is made outside).
"""
import tensorflow as tf
from tensorflow import keras


class DistributedRegressor(keras.Model):
    def __init__(self, strategy, units=16):
        with strategy.scope():
            super().__init__()
            self.strategy = strategy
            self.hidden = keras.layers.Dense(units, activation="relu")
            self.head = keras.layers.Dense(1)
            self.build((None, 4))

    def call(self, x):
        return self.head(self.hidden(x))

    def compile(self, **kwargs):
        with self.strategy.scope():
            super().compile(**kwargs)


class VAETrainer:
    def __init__(self, latent_size):
        self.strategy = tf.distribute.MirroredStrategy()
        with self.strategy.scope():
            self.encoder = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(latent_size)])
            self.optimizer = keras.optimizers.Adam(1e-4)

    def compile(self):
        with self.strategy.scope():
            self.encoder.compile(optimizer=self.optimizer, loss="mse")

    def train(self, x, y):
        self.encoder.fit(x, y, epochs=1, batch_size=8 * self.strategy.num_replicas_in_sync)


strategy = tf.distribute.MirroredStrategy()
x = tf.random.normal([32, 4])
y = tf.random.normal([32, 1])

net = DistributedRegressor(strategy)
net.compile(optimizer="adam", loss="mse")
net.fit(x, y, epochs=1, batch_size=8 * strategy.num_replicas_in_sync)

trainer = VAETrainer(latent_size=1)
trainer.compile()
trainer.train(x, y)
