"""Several unrelated "scope" context managers around a correctly scoped model:
custom_object_scope, a profiler trace, an MLflow run and a random-state helper."""
import contextlib
import random

import mlflow
import numpy as np
import tensorflow as tf
from tensorflow import keras


class RandomTool:
    def __init__(self, seed):
        self.seed = seed

    @contextlib.contextmanager
    def scope(self):
        state = random.getstate(), np.random.get_state()
        random.seed(self.seed)
        np.random.seed(self.seed)
        try:
            yield self
        finally:
            random.setstate(state[0])
            np.random.set_state(state[1])


@keras.saving.register_keras_serializable()
def swish6(x):
    return tf.minimum(x * tf.sigmoid(x), 6.0)


random_tool = RandomTool(seed=1234)
strategy = tf.distribute.MirroredStrategy()
batch = 128 * strategy.num_replicas_in_sync

with random_tool.scope():
    idx = np.random.permutation(50_000)

with mlflow.start_run(), strategy.scope():
    with keras.utils.custom_object_scope({"swish6": swish6}):
        model = keras.models.load_model("pretrained/swish_net.keras")
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])

(x, y), _ = keras.datasets.cifar10.load_data()
ds = tf.data.Dataset.from_tensor_slices((x[idx], y[idx])).batch(batch)
with tf.profiler.experimental.Trace("train", step_num=0), tf.name_scope("fit"):
    model.fit(ds, epochs=2)
mlflow.log_metric("done", 1)
