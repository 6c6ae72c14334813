"""No finding: `fit` of the file's own trainer class, not of a Keras model.

Source shape: trainer wrappers of public training scripts (a `Trainer` holding the strategy,
the model and its own `fit(x, y)` that batches itself), here deriving from a base class the
file imports. Keras's default batch of 32 belongs to `keras.Model.fit`, not to this one.
"""
import tensorflow as tf
from trainers.base import BaseTrainer

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 32


class DistributedTrainer(BaseTrainer):
    def __init__(self, strategy, build_fn):
        self.strategy = strategy
        with strategy.scope():
            self.model = build_fn()
            self.model.compile(optimizer="adam", loss="mse")

    def dataset(self, x, y):
        global_batch = BATCH_SIZE_PER_REPLICA * self.strategy.num_replicas_in_sync
        return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024).batch(global_batch)


def build():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])


x_train = tf.random.uniform((128, 4))
y_train = tf.random.uniform((128, 1))
trainer = DistributedTrainer(strategy, build)
trainer.fit(x_train, y_train)
