"""A trainer and a model factory that keep the caller's strategy under TF's other spellings."""
import tensorflow as tf


class ModelFactory:
    def __init__(self, dist):
        self.dist = dist

    def build(self, units=64):
        with self.dist.scope():
            model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(units, activation="relu"),
                                         tf.keras.layers.Dense(1)])
            model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")
        return model


class Trainer:
    def __init__(self, distribution, learning_rate=1e-3):
        self.distribution = distribution
        with distribution.scope():
            self.model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(1)])
            self.optimizer = tf.keras.optimizers.Adam(learning_rate)
            self.model.compile(optimizer=self.optimizer, loss="mse")

    def fit(self, dataset, epochs=1):
        return self.model.fit(dataset, epochs=epochs)


strategy = tf.distribute.MirroredStrategy()
batch = 64 * strategy.num_replicas_in_sync
ds = tf.data.Dataset.from_tensor_slices((tf.zeros((1024, 16)), tf.zeros((1024, 1)))).batch(batch)
baseline = ModelFactory(strategy).build()
baseline.fit(ds, epochs=1)
Trainer(strategy).fit(ds, epochs=2)
