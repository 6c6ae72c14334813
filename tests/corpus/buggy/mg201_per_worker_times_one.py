"""MG201: `per_worker_batch_size * 1`, a worker count of one written in.

Source shape: ParvinAkhundof/multi-gpu-processing `multi-worker-mnist/main.py` (the
multi_worker_with_keras tutorial's `main.py` with `num_workers` replaced by `1`); the tutorial's
`mnist_setup.mnist_dataset` is written out here, reading MNIST with tensorflow_datasets, so
that the batch is in the file.
"""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

per_worker_batch_size = 64

strategy = tf.distribute.MultiWorkerMirroredStrategy()


def mnist_dataset(batch_size):
    train = tfds.load(name="mnist", split="train", as_supervised=True)
    train = train.map(lambda image, label: (tf.cast(image, tf.float32) / 255.0, label))
    return train.shuffle(60000).repeat().batch(batch_size)


global_batch_size = per_worker_batch_size * 1
multi_worker_dataset = mnist_dataset(global_batch_size)  # expect: MG201

with strategy.scope():
    multi_worker_model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28, 1)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    multi_worker_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                               optimizer=tf.keras.optimizers.SGD(learning_rate=0.001), metrics=["accuracy"])

multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=100)
