"""Config dataclass holding optimizer/metric *classes*; instances are made inside the scope."""
import dataclasses

import tensorflow as tf


@dataclasses.dataclass
class TrainConfig:
    optimizer_cls: type = tf.keras.optimizers.AdamW
    learning_rate: float = 3e-4
    metric_classes: tuple = (tf.keras.metrics.AUC, tf.keras.metrics.Precision, tf.keras.metrics.Recall)
    per_replica_batch: int = 256
    epochs: int = 10


def build_model(num_features):
    inputs = tf.keras.Input(shape=(num_features,))
    x = tf.keras.layers.Dense(128, activation="relu")(inputs)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid")(x))


config = TrainConfig()
strategy = tf.distribute.MirroredStrategy()
global_batch = config.per_replica_batch * strategy.num_replicas_in_sync

features = tf.random.normal((50_000, 40))
labels = tf.cast(tf.reduce_sum(features[:, :5], axis=1) > 0, tf.float32)
ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(50_000).batch(global_batch)

with strategy.scope():
    model = build_model(40)
    model.compile(
        optimizer=config.optimizer_cls(learning_rate=config.learning_rate),
        loss="binary_crossentropy",
        metrics=[cls() for cls in config.metric_classes],
    )
model.fit(ds, epochs=config.epochs)
