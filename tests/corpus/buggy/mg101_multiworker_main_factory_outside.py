"""multi_worker_with_keras tutorial as a main.py with argparse: the factory is called before the scope."""
import argparse
import json
import os

import numpy as np
import tensorflow as tf


def mnist_dataset(batch_size):
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    x_train = x_train / np.float32(255)
    y_train = y_train.astype(np.int64)
    return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000).repeat().batch(batch_size)


def build_and_compile_cnn_model():
    model = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
        metrics=["accuracy"],
    )
    return model


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--per_worker_batch", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args(argv)

    tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    num_workers = len(tf_config.get("cluster", {}).get("worker", [])) or 1
    strategy = tf.distribute.MultiWorkerMirroredStrategy()

    global_batch_size = args.per_worker_batch * strategy.num_replicas_in_sync
    multi_worker_dataset = mnist_dataset(global_batch_size)

    multi_worker_model = build_and_compile_cnn_model()  # expect: MG101, MG102
    with strategy.scope():
        callbacks = [tf.keras.callbacks.BackupAndRestore(backup_dir="/tmp/backup")]

    multi_worker_model.fit(multi_worker_dataset, epochs=args.epochs, steps_per_epoch=70 * num_workers, callbacks=callbacks)  # expect: MG404


if __name__ == "__main__":
    main()
