"""MG405's cases kept with the tests. MG405 is off unless selected, so the corpus run never sees it:
its real-code shape (tensorflow/docs multi_worker_with_keras's mnist_setup.py and main.py, as one file:
an in-memory dataset reaches the strategy through a helper, unsharded) lives here, in the Case form of
the rule modules (run with only MG405 selected). tests/checker/test_settings.py checks it is off by default.
"""

from mirrorguard.checker.rules import Case

TUTORIAL = """\
import json
import os

import numpy as np
import tensorflow as tf

def mnist_dataset(batch_size):
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    x_train = x_train / np.float32(255)
    y_train = y_train.astype(np.int64)
    return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000).repeat().batch(batch_size)

tf_config = json.loads(os.environ["TF_CONFIG"])
num_workers = len(tf_config["cluster"]["worker"])
strategy = tf.distribute.MultiWorkerMirroredStrategy()
multi_worker_dataset = mnist_dataset(64 * num_workers)
with strategy.scope():
    multi_worker_model = build_and_compile_cnn_model()
multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=70)
"""

INVALID = [
    Case(TUTORIAL, lines=(19,)),
]

VALID = [
    # Sharded by hand.
    Case(TUTORIAL.replace(".shuffle(60000)", ".shard(2, 0).shuffle(60000)")),
    # Auto-sharding policy set through options.
    Case(TUTORIAL.replace(
        "multi_worker_model.fit(multi_worker_dataset,",
        "options = tf.data.Options()\n"
        "options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA\n"
        "multi_worker_model.fit(multi_worker_dataset.with_options(options),")),
]
