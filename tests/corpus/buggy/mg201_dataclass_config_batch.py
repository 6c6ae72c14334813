"""Keras fit script driven by a config dataclass (common in course repos and internal templates)."""
from dataclasses import dataclass, field

import tensorflow as tf


@dataclass
class TrainConfig:
    image_size: int = 224
    batch_size: int = 64
    epochs: int = 20
    learning_rate: float = 1e-3
    class_names: list = field(default_factory=lambda: ["cat", "dog"])


def load_split(cfg, split):
    return tf.keras.utils.image_dataset_from_directory(
        f"data/{split}", image_size=(cfg.image_size, cfg.image_size),
        batch_size=None, label_mode="int")


cfg = TrainConfig()
strategy = tf.distribute.MirroredStrategy()
train_ds = load_split(cfg, "train").shuffle(1000)
train_ds = train_ds.batch(cfg.batch_size).prefetch(tf.data.AUTOTUNE)  # expect: MG201
val_ds = load_split(cfg, "val").batch(cfg.batch_size * strategy.num_replicas_in_sync)

with strategy.scope():
    base = tf.keras.applications.ResNet50V2(include_top=False, weights=None,
                                            input_shape=(cfg.image_size, cfg.image_size, 3), pooling="avg")
    model = tf.keras.Sequential([base, tf.keras.layers.Dense(len(cfg.class_names))])
    model.compile(optimizer=tf.keras.optimizers.Adam(cfg.learning_rate),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])

model.fit(train_ds, validation_data=val_ds, epochs=cfg.epochs)
