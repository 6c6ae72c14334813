"""Keras fit with a config dataclass and a small Trainer class (templates in course repos); the per-replica
batch from the config is scaled by the replica count before batching."""
from dataclasses import dataclass

import tensorflow as tf


@dataclass(frozen=True)
class Config:
    per_replica_batch_size: int = 64
    epochs: int = 10
    lr: float = 3e-4
    num_classes: int = 10


class Trainer:
    def __init__(self, config: Config, strategy: tf.distribute.Strategy):
        self.config = config
        self.strategy = strategy
        self.global_batch_size = config.per_replica_batch_size * strategy.num_replicas_in_sync

    def datasets(self):
        (x, y), (xt, yt) = tf.keras.datasets.cifar10.load_data()
        train = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(50000).batch(self.global_batch_size)
        val = tf.data.Dataset.from_tensor_slices((xt, yt)).batch(self.global_batch_size)
        return train.prefetch(tf.data.AUTOTUNE), val

    def build(self):
        with self.strategy.scope():
            model = tf.keras.Sequential([
                tf.keras.layers.Rescaling(1 / 255.0),
                tf.keras.layers.Conv2D(64, 3, activation="relu"),
                tf.keras.layers.GlobalAveragePooling2D(),
                tf.keras.layers.Dense(self.config.num_classes),
            ])
            model.compile(optimizer=tf.keras.optimizers.AdamW(self.config.lr),
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                          metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
        return model

    def run(self):
        train, val = self.datasets()
        model = self.build()
        return model.fit(train, validation_data=val, epochs=self.config.epochs)


if __name__ == "__main__":
    Trainer(Config(), tf.distribute.MirroredStrategy()).run()
