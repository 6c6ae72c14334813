"""MG103 (invalid): an optimizer made outside the scope, handed to a model class's compile() that enters the scope itself.

The class of clean/mg101_model_class_enters_own_scope.py (its `compile` runs inside
`with self.strategy.scope():`, as the tf-keras Model internals copied into microsoft/nni
do), called with `optimizer=keras.optimizers.Adam(1e-3)` written in the call. The optimizer
object is created before `compile` enters the scope: Keras 3 then fails at `fit` with
"Mixing different tf.distribute.Strategy objects" (measured on this class: Keras 3.15, TF 2.21,
2 CPU replicas; with `optimizer="adam"` it trains mirrored).
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


strategy = tf.distribute.MirroredStrategy()
net = DistributedRegressor(strategy)
net.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")  # expect: MG103
net.fit(tf.random.normal([32, 4]), tf.random.normal([32, 1]), epochs=1, batch_size=8 * strategy.num_replicas_in_sync)
