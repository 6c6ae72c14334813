"""MG201: the global batch multiplied by a worker count written as a number.

Source shape: the TF 2.0/2.1 tensorflow/docs multi_worker_with_keras tutorial, copied into many
repositories (`NUM_WORKERS = 2`, `GLOBAL_BATCH_SIZE = 64 * NUM_WORKERS`, then
`make_datasets_unbatched().batch(GLOBAL_BATCH_SIZE)`). The product is a fixed 128 whatever the
cluster holds: the finding names `NUM_WORKERS` as the number to replace by
`strategy.num_replicas_in_sync`, and the fixer does not multiply it a second time.
"""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

strategy = tf.distribute.MultiWorkerMirroredStrategy()

BUFFER_SIZE = 10000
NUM_WORKERS = 2
GLOBAL_BATCH_SIZE = 64 * NUM_WORKERS


def make_datasets_unbatched():
    def scale(image, label):
        return tf.cast(image, tf.float32) / 255.0, label

    datasets = tfds.load(name="mnist", as_supervised=True)
    return datasets["train"].map(scale).cache().shuffle(BUFFER_SIZE).repeat()


def build_and_compile_cnn_model():
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(10),
    ])
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.SGD(learning_rate=0.001), metrics=["accuracy"])
    return model


train_datasets = make_datasets_unbatched().batch(GLOBAL_BATCH_SIZE)  # expect: MG201
with strategy.scope():
    multi_worker_model = build_and_compile_cnn_model()
multi_worker_model.fit(x=train_datasets, epochs=3, steps_per_epoch=5)
