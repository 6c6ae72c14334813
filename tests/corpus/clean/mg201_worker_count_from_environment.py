"""No finding: the worker count comes from the environment, not from a number in the file.

Source shape: copies of the tensorflow/docs multi_worker_with_keras tutorial that read
`NUM_WORKERS = int(os.environ["NUM_WORKERS"])` (or `len(tf_config["cluster"]["worker"])`)
before `GLOBAL_BATCH_SIZE = 64 * NUM_WORKERS`. What the product is cannot be read here, so
MG201 stays silent (a false alarm in pre-commit costs more than this miss).
"""
import json
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402
import tensorflow_datasets as tfds  # noqa: E402

strategy = tf.distribute.MultiWorkerMirroredStrategy()

tf_config = json.loads(os.environ.get("TF_CONFIG", '{"cluster": {"worker": ["localhost:1"]}}'))
NUM_WORKERS = len(tf_config["cluster"]["worker"])
GLOBAL_BATCH_SIZE = 64 * NUM_WORKERS

mnist = tfds.load(name="mnist", split="train", as_supervised=True)
train = mnist.map(lambda image, label: (tf.cast(image, tf.float32) / 255.0, label))
train = train.shuffle(10000).repeat().batch(GLOBAL_BATCH_SIZE)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28, 1)), tf.keras.layers.Dense(10)])
    model.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(train, epochs=3, steps_per_epoch=70)
