"""The replica_oracle fixture and marker of the pytest plugin, in fresh pytest processes."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TESTS = """
    import numpy as np
    import pytest
    import tensorflow as tf

    rng = np.random.default_rng(0)
    X = rng.normal(size=(32, 3)).astype("float32")
    Y = X @ np.ones((3, 1), "float32")


    def make_build(mean):
        def build(strategy):
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
                optimizer = tf.keras.optimizers.SGD(0.1)

            def step(batch):
                x, y = batch
                with tf.GradientTape() as tape:
                    per_example = tf.reduce_sum(tf.square(y - model(x, training=True)), axis=-1)
                    loss = (tf.reduce_mean(per_example) if mean
                            else tf.nn.compute_average_loss(per_example, global_batch_size=8))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))

            @tf.function
            def train_step(batch):
                strategy.run(step, args=(batch,))

            return model, train_step
        return build


    def test_right(replica_oracle):
        report = replica_oracle(make_build(False), (X, Y), global_batch_size=8)
        assert report.passed and report.comparisons[0].replicas == 2


    @pytest.mark.replica_oracle(steps=3)
    def test_wrong(replica_oracle):
        replica_oracle(make_build(True), (X, Y), global_batch_size=8)


    @pytest.mark.replica_oracle(replicas=(1, 4))
    def test_more_replicas_than_devices(replica_oracle):
        pass
"""


def test_marker_is_registered(pytester):
    result = pytester.runpytest_subprocess("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.replica_oracle(replicas=(1, N), steps=2, *"])


@pytest.mark.tf
@pytest.mark.slow
def test_fixture_passes_right_steps_and_fails_wrong_ones_with_the_table(pytester, monkeypatch):
    monkeypatch.delenv("MIRRORGUARD_REPLICAS", raising=False)
    pytester.makepyfile(TESTS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ReplicaMismatchError: replica oracle: custom loop, 3 step(s) of global batch 8*",
            "*cause (loss-averaged-per-replica): every update is ~2x*",
        ]
    )
    result.stdout.fnmatch_lines(["*the replica oracle compares (1, 4) replicas but the CPU is split into 2*"])
