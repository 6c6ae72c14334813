"""Trainer with an optional strategy and a _scope() helper; the model is trained only through it."""
import contextlib

import tensorflow as tf


class Trainer:
    def __init__(self, strategy=None, per_replica_batch=64):
        self.strategy = strategy
        replicas = strategy.num_replicas_in_sync if strategy else 1
        self.batch_size = per_replica_batch * replicas
        with self._scope():
            self.model = self._build()
            self.model.compile(optimizer=tf.keras.optimizers.RMSprop(1e-3), loss="mse",
                               metrics=[tf.keras.metrics.MeanAbsoluteError()])

    def _scope(self):
        return self.strategy.scope() if self.strategy is not None else contextlib.nullcontext()

    @staticmethod
    def _build():
        return tf.keras.Sequential([
            tf.keras.layers.Input(shape=(24, 7)),
            tf.keras.layers.LSTM(32),
            tf.keras.layers.Dense(1),
        ])

    def fit(self, series, targets, epochs=10):
        ds = tf.data.Dataset.from_tensor_slices((series, targets)).batch(self.batch_size)
        return self.model.fit(ds, epochs=epochs)


if __name__ == "__main__":
    gpus = tf.config.list_physical_devices("GPU")
    trainer = Trainer(tf.distribute.MirroredStrategy() if len(gpus) > 1 else None)
    trainer.fit(tf.random.normal((2048, 24, 7)), tf.random.normal((2048, 1)))
