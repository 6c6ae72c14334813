"""Shape of absl worker entry points (tensorflow/models-style main(_) with flags): a helper fills
TF_CONFIG from flags, but main() makes the strategy before calling it."""
import json
import os

import tensorflow as tf
from absl import app, flags

FLAGS = flags.FLAGS
flags.DEFINE_list("worker_hosts", ["localhost:12345", "localhost:23456"], "host:port of every worker")
flags.DEFINE_integer("task_index", 0, "index of this worker")


def set_tf_config(hosts, index):
    os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": hosts}, "task": {"type": "worker", "index": index}})


def main(_):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    set_tf_config(FLAGS.worker_hosts, FLAGS.task_index)  # expect: MG401
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam()
    print(model, optimizer)


if __name__ == "__main__":
    app.run(main)
