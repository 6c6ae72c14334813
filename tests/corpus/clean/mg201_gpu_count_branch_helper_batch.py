"""Single/multi-GPU script: strategy chosen by GPU count, global batch passed to a helper that batches."""
import argparse

import numpy as np
import tensorflow as tf


def make_dataset(x, y, batch_size, training=True):
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    if training:
        ds = ds.shuffle(len(x))
    return ds.batch(batch_size).prefetch(tf.data.AUTOTUNE)


def build_model(num_classes):
    inputs = tf.keras.Input(shape=(32, 32, 3))
    x = tf.keras.layers.Conv2D(64, 3, activation="relu")(inputs)
    x = tf.keras.layers.GlobalMaxPooling2D()(x)
    outputs = tf.keras.layers.Dense(num_classes)(x)
    return tf.keras.Model(inputs, outputs)


parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=10)
args = parser.parse_args()

gpus = tf.config.list_physical_devices("GPU")
if len(gpus) > 1:
    strategy = tf.distribute.MirroredStrategy()
    print(f"Using {len(gpus)} GPUs")
else:
    strategy = tf.distribute.get_strategy()

PER_REPLICA_BATCH = 128
global_batch = PER_REPLICA_BATCH * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
x_train, x_test = x_train.astype(np.float32) / 255.0, x_test.astype(np.float32) / 255.0
train_ds = make_dataset(x_train, y_train, global_batch)
test_ds = make_dataset(x_test, y_test, global_batch, training=False)

with strategy.scope():
    model = build_model(10)
    model.compile(
        optimizer=tf.keras.optimizers.SGD(0.01 * strategy.num_replicas_in_sync, momentum=0.9),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
    )

model.fit(train_ds, epochs=args.epochs, validation_data=test_ds)
model.evaluate(test_ds)
model.save("cifar_model.keras")
