"""Trainer wrapper used by several experiments."""
import logging

import tensorflow as tf

log = logging.getLogger(__name__)


class Trainer:
    def __init__(self, config, strategy=None):
        self.config = config
        self.strategy = strategy or tf.distribute.MirroredStrategy()
        log.info("replicas: %d", self.strategy.num_replicas_in_sync)
        self.model = self._build_model()  # expect: MG101

    def _build_model(self):
        inputs = tf.keras.Input(shape=(self.config["input_dim"],))
        x = inputs
        for units in self.config["hidden"]:
            x = tf.keras.layers.Dense(units, activation="gelu")(x)
            x = tf.keras.layers.Dropout(self.config["dropout"])(x)
        outputs = tf.keras.layers.Dense(self.config["num_classes"])(x)
        return tf.keras.Model(inputs, outputs)

    def compile(self):
        with self.strategy.scope():
            self.model.compile(
                optimizer=tf.keras.optimizers.AdamW(self.config["lr"]),
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=["accuracy"],
            )

    def train(self, train_ds, val_ds):
        self.compile()
        return self.model.fit(train_ds, validation_data=val_ds, epochs=self.config["epochs"])
