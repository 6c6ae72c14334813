"""tensorflow/docs distribute/multi_worker_with_keras as a worker script; the batch arithmetic from
TF_CONFIG was dropped for a literal."""
import json
import os

import numpy as np
import tensorflow as tf

tf_config = json.loads(os.environ["TF_CONFIG"])
num_workers = len(tf_config["cluster"]["worker"])
communication_options = tf.distribute.experimental.CommunicationOptions(
    implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)
strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=communication_options)

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
x_train = (x_train / np.float32(255)).astype(np.float32)
y_train = y_train.astype(np.int64)
train_dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
                 .shuffle(60000).repeat())
train_dataset = train_dataset.batch(128)  # expect: MG201

with strategy.scope():
    multi_worker_model = tf.keras.Sequential([
        tf.keras.layers.InputLayer(input_shape=(28, 28)),
        tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    multi_worker_model.compile(
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
        metrics=["accuracy"])

callbacks = [tf.keras.callbacks.BackupAndRestore(backup_dir="/tmp/backup")]
multi_worker_model.fit(train_dataset, epochs=3, steps_per_epoch=70, callbacks=callbacks)  # expect: MG404
task_type, task_id = tf_config["task"]["type"], tf_config["task"]["index"]
if task_type == "worker" and task_id == 0:
    multi_worker_model.save("/tmp/keras-model.keras")  # expect: MG402
