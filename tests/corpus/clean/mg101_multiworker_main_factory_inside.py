"""multi_worker_with_keras tutorial as main.py: factory called under the scope inside main()."""
import json
import os

import numpy as np
os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf-keras: Keras 3 cannot fit() here (MG404)
import tensorflow as tf
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_integer("per_worker_batch_size", 64, "Batch size on each worker.")
flags.DEFINE_integer("epochs", 3, "Epochs.")


def mnist_dataset(batch_size):
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    x_train = x_train / np.float32(255)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train.astype(np.int64)))
    return train_dataset.shuffle(60000).repeat().batch(batch_size)


def build_and_compile_cnn_model():
    model = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(10),
    ])
    model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
        metrics=["accuracy"],
    )
    return model


def main(_):
    tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
    communication_options = tf.distribute.experimental.CommunicationOptions(
        implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)
    strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=communication_options)
    global_batch_size = FLAGS.per_worker_batch_size * strategy.num_replicas_in_sync
    multi_worker_dataset = mnist_dataset(global_batch_size)

    with strategy.scope():
        multi_worker_model = build_and_compile_cnn_model()

    callbacks = [tf.keras.callbacks.BackupAndRestore(backup_dir="/tmp/backup")]
    multi_worker_model.fit(multi_worker_dataset, epochs=FLAGS.epochs, steps_per_epoch=70, callbacks=callbacks)
    task_type = tf_config.get("task", {}).get("type", "chief")
    model_path = "/tmp/keras-model" if task_type == "chief" else f"/tmp/workertemp_{tf_config['task']['index']}"
    multi_worker_model.save(model_path)


if __name__ == "__main__":
    app.run(main)
