"""Reusable training script: get_strategy() picks TPU/GPUs/CPU, builders enter the scope they are given."""
import contextlib

import tensorflow as tf


def get_strategy():
    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver)
    except (ValueError, KeyError):
        if len(tf.config.list_logical_devices("GPU")) > 1:
            return tf.distribute.MirroredStrategy()
        return tf.distribute.get_strategy()


def create_model(strategy, num_classes=5):
    with strategy.scope():
        base = tf.keras.applications.ResNet50V2(include_top=False, weights="imagenet", pooling="avg")
        base.trainable = False
        model = tf.keras.Sequential([base, tf.keras.layers.Dense(num_classes)])
        model.compile(
            optimizer=tf.keras.optimizers.Adam(1e-3),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
        )
    return model, base


def fine_tune(model, base, strategy, lr=1e-5):
    maybe_scope = strategy.scope() if strategy.num_replicas_in_sync > 1 else contextlib.nullcontext()
    with maybe_scope:
        base.trainable = True
        model.compile(
            optimizer=tf.keras.optimizers.Adam(lr),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
        )


strategy = get_strategy()
batch_size = 32 * strategy.num_replicas_in_sync
train_ds = tf.keras.utils.image_dataset_from_directory("flowers/train", image_size=(224, 224), batch_size=batch_size)
val_ds = tf.keras.utils.image_dataset_from_directory("flowers/val", image_size=(224, 224), batch_size=batch_size)

model, base = create_model(strategy)
model.fit(train_ds, validation_data=val_ds, epochs=5)
fine_tune(model, base, strategy)
model.fit(train_ds, validation_data=val_ds, epochs=10)
