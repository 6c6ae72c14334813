"""MG403 false alarm (red team round 4): the eager context is reset before the strategy is made.

Source: tensorflow/ecosystem spark/spark-tensorflow-distributor/spark_tensorflow_distributor/
mirrored_strategy_runner.py (run_tensorflow_program): a Spark task reuses a Python worker that may have
run TensorFlow already, so it calls `context._reset_context()` and only then creates the
MultiWorkerMirroredStrategy. The ops before the reset do not count.
"""
import tensorflow as tf
from tensorflow.python.eager import context

probe = tf.reduce_sum(tf.ones([2, 2]))  # the worker ran TensorFlow before this task
print("probe", float(probe))


def run_tensorflow_program(train_fn):
    context._reset_context()
    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    with strategy.scope():
        return train_fn()


def train():
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


if __name__ == "__main__":
    run_tensorflow_program(train)
