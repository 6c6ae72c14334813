"""Script with a @contextmanager helper that enters the strategy's scope when one is configured."""
import argparse
import contextlib

import tensorflow as tf


@contextlib.contextmanager
def maybe_distributed(strategy):
    """Enters `strategy.scope()` when a strategy is given, else does nothing."""
    if strategy is None:
        yield
    else:
        with strategy.scope():
            yield


def build_classifier(num_classes):
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(224, 224, 3)),
        tf.keras.applications.EfficientNetV2B0(include_top=False, weights=None, pooling="avg"),
        tf.keras.layers.Dense(num_classes),
    ])


parser = argparse.ArgumentParser()
parser.add_argument("--multi_gpu", action="store_true")
parser.add_argument("--batch_per_device", type=int, default=32)
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy() if args.multi_gpu else None
replicas = strategy.num_replicas_in_sync if strategy else 1
train_ds = tf.keras.utils.image_dataset_from_directory(
    "data/train", image_size=(224, 224), batch_size=args.batch_per_device * replicas)

with maybe_distributed(strategy):
    model = build_classifier(num_classes=len(train_ds.class_names))
    model.compile(
        optimizer=tf.keras.optimizers.Adam(1e-3),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
    )
model.fit(train_ds, epochs=10)
