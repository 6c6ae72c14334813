"""Settle a round-5 label by running the labelled shape on 2 logical CPU replicas.

Run: `PYTHONPATH=$PWD python tests/redteam/labels_round5/runtime_checks.py NAME` (one shape per process,
since logical devices must be configured before TensorFlow starts). Prints one line `NAME: outcome`.
Tiny synthetic data, one step; evidence for labels.py, not a test of mirrorguard.

Measured 2026-12-02 (TensorFlow 2.21, Keras 3.15):
    optimizer_outside_plain_tf_function: FAILED TypeError: TypeError: tuple indices must be integers or slices, not MirroredVariable
    optimizer_inside_plain_tf_function: ran, weight [-1.0], iterations 1, mirrored True
"""

import sys

import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _plain_tf_function_step(optimizer_inside):
    """kubeflow/examples distributed_nmt_with_attention.py: models built in the scope, the optimizer made
    afterwards (outside it, or inside for the control) and used in a tf.function called directly, with no
    strategy.run and no compile()."""
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")])
        if optimizer_inside:
            optimizer = tf.keras.optimizers.SGD(1.0)
    if not optimizer_inside:
        optimizer = tf.keras.optimizers.SGD(1.0)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    try:
        train_step(tf.ones((8, 1)), tf.zeros((8, 1)))
    except Exception as error:  # the outcome is what we measure
        return f"FAILED {type(error).__name__}: {str(error).strip().splitlines()[-1].strip()[:200]}"
    weight = model.trainable_variables[0]
    mirrored = isinstance(weight.value, tf.distribute.DistributedValues)
    return f"ran, weight {weight.numpy().ravel().tolist()}, iterations {int(optimizer.iterations.numpy())}, mirrored {mirrored}"


def optimizer_outside_plain_tf_function():
    return _plain_tf_function_step(optimizer_inside=False)


def optimizer_inside_plain_tf_function():
    return _plain_tf_function_step(optimizer_inside=True)


if __name__ == "__main__":
    name = sys.argv[1]
    print(f"{name}: {globals()[name]()}")
