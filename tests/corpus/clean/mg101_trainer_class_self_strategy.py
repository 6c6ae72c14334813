"""Experiment runner class; model and optimizer are created under self.strategy."""
from dataclasses import dataclass

import tensorflow as tf
from tensorflow import keras


@dataclass
class Config:
    num_classes: int = 10
    lr: float = 1e-3
    epochs: int = 5
    per_replica_batch: int = 64


class Experiment:
    def __init__(self, cfg: Config, strategy: tf.distribute.Strategy):
        self.cfg = cfg
        self.strategy = strategy
        self.global_batch = cfg.per_replica_batch * strategy.num_replicas_in_sync
        with self.strategy.scope():
            self.model = self._build()
            self._compile()

    def _build(self):
        return keras.Sequential([
            keras.layers.Rescaling(1 / 255.0),
            keras.layers.Conv2D(32, 3, activation="relu"),
            keras.layers.GlobalAveragePooling2D(),
            keras.layers.Dense(self.cfg.num_classes),
        ])

    def _compile(self):
        self.model.compile(
            optimizer=keras.optimizers.Adam(self.cfg.lr),
            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=[keras.metrics.SparseCategoricalAccuracy()],
        )

    def data(self, x, y):
        return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10_000).batch(self.global_batch)

    def run(self, x, y):
        return self.model.fit(self.data(x, y), epochs=self.cfg.epochs)


if __name__ == "__main__":
    (x, y), _ = keras.datasets.cifar10.load_data()
    exp = Experiment(Config(), tf.distribute.MirroredStrategy())
    exp.run(x, y)
