"""The pytest plugin, exercised in fresh pytest processes through pytester."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

# What a test sees of TensorFlow when nothing asked for it.
TF_FREE_TEST = """
    import sys

    def test_plain():
        assert "tensorflow" not in sys.modules
"""


@pytest.fixture(autouse=True)
def _no_outer_setting(monkeypatch):
    """Keep a MIRRORGUARD_REPLICAS from the outer run out of the inner ones."""
    monkeypatch.delenv("MIRRORGUARD_REPLICAS", raising=False)


def test_unrelated_suites_import_no_tensorflow(pytester):
    pytester.makepyfile(TF_FREE_TEST)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["mirrorguard: 2 logical CPU devices (default), *"])


@pytest.mark.parametrize(
    ("cli", "env", "ini", "header"),
    [
        (None, None, "3", "3 logical CPU devices (from ini mirrorguard_replicas)"),
        (None, "4", "3", "4 logical CPU devices (from MIRRORGUARD_REPLICAS)"),
        ("5", "4", "3", "5 logical CPU devices (from --mirrorguard-replicas)"),
    ],
)
def test_option_beats_environment_beats_ini(pytester, monkeypatch, cli, env, ini, header):
    pytester.makeini(f"[pytest]\nmirrorguard_replicas = {ini}\n")
    pytester.makepyfile(TF_FREE_TEST)
    if env:
        monkeypatch.setenv("MIRRORGUARD_REPLICAS", env)
    result = pytester.runpytest_subprocess(*([f"--mirrorguard-replicas={cli}"] if cli else []))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"mirrorguard: {header}, *"])


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("cli", "0", "--mirrorguard-replicas must be a whole number of at least 1, got '0'"),
        ("env", "two", "MIRRORGUARD_REPLICAS must be a whole number of at least 1, got 'two'"),
        ("ini", "-1", "ini mirrorguard_replicas must be a whole number of at least 1, got '-1'"),
    ],
)
def test_bad_counts_are_usage_errors(pytester, monkeypatch, where, value, message):
    pytester.makepyfile(TF_FREE_TEST)
    args = []
    if where == "cli":
        args.append(f"--mirrorguard-replicas={value}")
    elif where == "env":
        monkeypatch.setenv("MIRRORGUARD_REPLICAS", value)
    else:
        pytester.makeini(f"[pytest]\nmirrorguard_replicas = {value}\n")
    result = pytester.runpytest_subprocess(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_option_is_listed_in_its_own_help_group(pytester):
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["mirrorguard: multi-replica tests on CPU:", "*--mirrorguard-replicas=N*"])


@pytest.mark.tf
@pytest.mark.slow
def test_fixtures_give_a_strategy_over_logical_cpus(pytester):
    pytester.makepyfile(
        """
        import numpy as np
        import tensorflow as tf

        def test_runs_tensorflow_before_any_fixture():
            # The CPU was split at the end of collection, so this cannot pin it to one device.
            assert float(tf.constant(2.0) * 2) == 4.0

        def test_replica_count(replica_count):
            assert replica_count == 3
            assert len(tf.config.list_logical_devices("CPU")) == 3

        def test_keras_trains_on_every_replica(mirrored_strategy):
            assert mirrored_strategy.num_replicas_in_sync == 3
            with mirrored_strategy.scope():
                model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])
                model.compile(optimizer="adam", loss="mse")
            kernel = model.weights[0]
            assert isinstance(getattr(kernel, "value", kernel), tf.distribute.DistributedValues)
            data = tf.data.Dataset.from_tensor_slices((np.ones((12, 4)), np.ones((12, 2)))).batch(6)
            model.fit(data, epochs=1, verbose=0)
        """
    )
    result = pytester.runpytest_subprocess("--mirrorguard-replicas=3", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)


@pytest.mark.tf
@pytest.mark.slow
def test_tensorflow_started_with_other_devices_is_a_usage_error(pytester):
    pytester.makeconftest(
        """
        import tensorflow as tf

        ONE = tf.constant(1.0)  # starts TensorFlow's runtime with a single CPU device
        """
    )
    pytester.makepyfile("def test_needs_two(mirrored_strategy):\n    pass\n")
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*could not split the CPU into 2 logical devices (default): "
            "TensorFlow already started with 1 logical CPU device(s), not 2*"
        ]
    )
    # Asking for the count the runtime already has is accepted.
    result = pytester.runpytest_subprocess("--mirrorguard-replicas=1")
    result.assert_outcomes(passed=1)


@pytest.mark.tf
@pytest.mark.slow
def test_tensorflow_start_up_noise_is_silenced_unless_the_user_sets_the_level(pytester, monkeypatch):
    pytester.makepyfile(
        """
        def test_devices(replica_count):
            import tensorflow as tf

            assert len(tf.config.list_logical_devices("CPU")) == replica_count
        """
    )
    monkeypatch.delenv("TF_CPP_MIN_LOG_LEVEL", raising=False)
    quiet = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    quiet.assert_outcomes(passed=1)
    assert "cuInit" not in quiet.stdout.str() + quiet.stderr.str()
    # The user's own level wins: TensorFlow's ERROR lines are theirs to see.
    monkeypatch.setenv("TF_CPP_MIN_LOG_LEVEL", "0")
    loud = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")
    loud.assert_outcomes(passed=1)
    assert "cuInit" in loud.stdout.str() + loud.stderr.str()
