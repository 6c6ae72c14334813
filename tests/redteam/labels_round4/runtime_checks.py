"""Settle a few round-4 labels by running the labelled shape on 2 logical CPU replicas.

Run: `PYTHONPATH=$PWD python tests/redteam/labels_round4/runtime_checks.py NAME` (one shape per process,
since logical devices must be configured before TensorFlow starts). Prints one line `NAME: outcome`.
Tiny synthetic data, a step or two; these are evidence for labels.py, not tests of mirrorguard.
"""

import sys

import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def gan_compile_outside():
    """SaKi1309 GAN notebook c13: model built in scope, custom compile() and Adam objects outside, step
    run by strategy.run."""

    class GAN(tf.keras.Model):
        def __init__(self, g):
            super().__init__()
            self.g = g

        def compile(self, opt):
            super().compile()
            self.opt = opt

        def call(self, x):
            return self.g(x)

    with strategy.scope():
        gan = GAN(tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)]))
    gan.compile(opt=tf.keras.optimizers.Adam(1e-3))
    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(np.ones((8, 4), "float32")).batch(4))

    @tf.function
    def step(x):
        def fn(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(gan(x)) / 4.0
            grads = tape.gradient(loss, gan.trainable_variables)
            gan.opt.apply_gradients(zip(grads, gan.trainable_variables))
        strategy.run(fn, args=(x,))

    for x in ds:
        step(x)
    it = gan.opt.iterations
    return f"trained; optimizer.iterations={int(it.numpy())} after 2 steps, distributed={isinstance(getattr(it, 'value', it), tf.distribute.DistributedValues)}"


def tpu_lab_batch():
    """tensorflow-3-public C2_W4_Lab_3: dataset batched by BATCH_SIZE (global, split over replicas) while
    compute_average_loss divides by BATCH_SIZE * num_replicas_in_sync."""
    batch = 8
    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(np.ones((8, 1), "float32")).batch(batch))

    def fn(x):
        per_example = tf.reduce_sum(x, axis=1)  # 1 per example
        return tf.nn.compute_average_loss(per_example, global_batch_size=batch * strategy.num_replicas_in_sync)

    for x in ds:
        loss = strategy.reduce("SUM", strategy.run(fn, args=(x,)), axis=None)
    return f"mean per-example loss 1.0 reported as {float(loss):.3f} (rows per replica {batch // 2})"


def step_variable_in_run_args():
    """uncertainty-baselines cifar/sngp.py l.620: a tf.Variable step counter made outside the scope,
    assigned on the host, passed to strategy.run(args=(..., step)) and only read there."""
    step_variable = tf.Variable(0, dtype=tf.int32)
    seen = []

    @tf.function
    def train_step(step):
        def fn(step):
            return tf.cast(tf.equal(step, 0), tf.int32)
        return strategy.reduce("SUM", strategy.run(fn, args=(step,)), axis=None)

    for s in range(2):
        step_variable.assign(s)
        seen.append(int(train_step(step_variable)))
    return f"ran; replicas seeing step==0 per step: {seen}"


if __name__ == "__main__":
    name = sys.argv[1]
    try:
        print(f"{name}: {globals()[name]()}")
    except Exception as error:  # the outcome is what we measure
        msg = [l for l in str(error).splitlines() if "Error" in l or "strategy" in l.lower()]
        print(f"{name}: {type(error).__name__}: {(msg[-1] if msg else str(error))[:220]}")
