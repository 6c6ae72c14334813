"""Small experiment framework: a trainer that owns the strategy scope, fed from a config."""
import dataclasses
import logging

import tensorflow as tf

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("experiment")


@dataclasses.dataclass
class ExperimentConfig:
    per_replica_batch: int = 128
    epochs: int = 20
    learning_rate: float = 3e-4
    num_classes: int = 100


def resnet_block(x, filters):
    shortcut = x
    x = tf.keras.layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
    x = tf.keras.layers.BatchNormalization()(x)
    x = tf.keras.layers.ReLU()(x)
    x = tf.keras.layers.Conv2D(filters, 3, padding="same", use_bias=False)(x)
    x = tf.keras.layers.BatchNormalization()(x)
    if shortcut.shape[-1] != filters:
        shortcut = tf.keras.layers.Conv2D(filters, 1)(shortcut)
    return tf.keras.layers.ReLU()(x + shortcut)


def small_resnet(num_classes):
    inputs = tf.keras.Input(shape=(32, 32, 3))
    x = tf.keras.layers.Rescaling(1.0 / 255)(inputs)
    for filters in (32, 64, 128):
        x = resnet_block(x, filters)
        x = tf.keras.layers.MaxPooling2D()(x)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(num_classes)(x))


class DistributedTrainer:
    """Builds and compiles under its strategy's scope, so callers need not."""

    def __init__(self, strategy, model_fn, optimizer, metrics=("accuracy",)):
        self.strategy = strategy
        with self.strategy.scope():
            self.model = model_fn()
            self.model.compile(
                optimizer=optimizer,
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=list(metrics),
            )

    def fit(self, train_ds, val_ds, epochs, callbacks=None):
        return self.model.fit(train_ds, validation_data=val_ds, epochs=epochs, callbacks=callbacks)


def load_cifar100(global_batch):
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar100.load_data()
    train = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(50_000).batch(global_batch)
    test = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(global_batch)
    return train.prefetch(tf.data.AUTOTUNE), test.prefetch(tf.data.AUTOTUNE)


def run(cfg: ExperimentConfig):
    strategy = tf.distribute.MirroredStrategy()
    global_batch = cfg.per_replica_batch * strategy.num_replicas_in_sync
    log.info("replicas=%d global_batch=%d", strategy.num_replicas_in_sync, global_batch)
    train_ds, test_ds = load_cifar100(global_batch)

    # The optimizer object is made here, outside any scope, and handed to the trainer,
    # which compiles with it inside its scope.
    schedule = tf.keras.optimizers.schedules.CosineDecay(cfg.learning_rate, decay_steps=10_000)
    optimizer = tf.keras.optimizers.AdamW(learning_rate=schedule, weight_decay=1e-4)  # expect: MG103
    top5 = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=5, name="top5")  # expect: MG103

    trainer = DistributedTrainer(
        strategy,
        lambda: small_resnet(cfg.num_classes),
        optimizer,
        metrics=("accuracy", top5),
    )
    history = trainer.fit(
        train_ds,
        test_ds,
        epochs=cfg.epochs,
        callbacks=[tf.keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True)],
    )
    log.info("best val acc %.4f", max(history.history["val_accuracy"]))
    trainer.model.save("cifar100_resnet.keras")


if __name__ == "__main__":
    run(ExperimentConfig())
