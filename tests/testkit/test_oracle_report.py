"""The oracle's tolerance and diagnosis on recorded traces: no TensorFlow needed."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from mirrorguard.testkit import oracle
from mirrorguard.testkit._model_parts import ModelParts


def _subject(variables, replicas, parts=None):
    return SimpleNamespace(
        variables=lambda: variables,
        strategy=SimpleNamespace(num_replicas_in_sync=replicas),
        parts=parts or ModelParts(),
    )


def _var(name, kind="trainable", integer=False, **flags):
    return oracle._Var(name=name, kind=kind, variable=None, integer=integer, **flags)


def _trace(*states, reported=None):
    states = [[np.asarray(v, dtype=np.float32) for v in state] for state in states]
    return oracle._Trace(states=states, reported=reported or [{} for _ in states[1:]])


def _compare(variables, base, other, parts=None, strict=False, rtol=oracle.DEFAULT_RTOL, atol=oracle.DEFAULT_ATOL):
    return oracle._compare(_subject(variables, 1, parts), base, _subject(variables, 2), other, rtol, atol, strict)


W0 = np.array([0.5, -0.25, 1.0])
STEP = np.array([0.01, -0.02, 0.005])


def test_reordered_float32_sums_pass():
    # A few ulps of the weight and 1e-5 of the update: what another summation order leaves.
    noise = W0 * 2**-22 + STEP * 1e-5
    result = _compare([_var("kernel")], _trace([W0], [W0 + STEP]), _trace([W0], [W0 + STEP + noise]))
    assert result.passed and result.diagnoses == []
    assert result.diffs[0].max_rel < 1e-3


def test_twice_the_update_is_the_mean_per_replica():
    result = _compare(
        [_var("kernel"), _var("bias")],
        _trace([W0, W0], [W0 + STEP, W0 + STEP]),
        _trace([W0, W0], [W0 + 2 * STEP, W0 + 2 * STEP]),
    )
    assert not result.passed
    assert [d.cause for d in result.diagnoses] == [oracle.AVERAGED_PER_REPLICA]
    assert result.diffs[0].step == 1 and result.diffs[0].max_rel == pytest.approx(1.0, rel=1e-4)


def test_adam_moments_scaled_by_n_and_n_squared_are_the_mean_per_replica():
    # Adam's step is scale-invariant: the weight agrees, its moments do not.
    m, v = STEP * 0.1, STEP**2 * 10
    result = _compare(
        [_var("kernel"), _var("m", "optimizer"), _var("v", "optimizer")],
        _trace([W0, 0 * W0, 0 * W0], [W0 + STEP, m, v]),
        _trace([W0, 0 * W0, 0 * W0], [W0 + STEP, 2 * m, 4 * v]),
    )
    assert [d.cause for d in result.diagnoses] == [oracle.AVERAGED_PER_REPLICA]
    assert result.diagnoses[0].variables == ("m", "v")


def test_half_the_update_is_averaged_twice():
    result = _compare([_var("kernel")], _trace([W0], [W0 + STEP]), _trace([W0], [W0 + STEP / 2]))
    assert [d.cause for d in result.diagnoses] == [oracle.AVERAGED_TWICE]


def test_only_regularised_weights_off():
    result = _compare(
        [_var("kernel", regularised=True), _var("bias"), _var("out")],
        _trace([W0, W0, W0], [W0 + STEP, W0 + STEP, W0 + STEP]),
        _trace([W0, W0, W0], [W0 + 1.4 * STEP, W0 + STEP, W0 + STEP]),
    )
    assert [d.cause for d in result.diagnoses] == [oracle.REGULARISATION_PER_REPLICA]
    assert "tf.nn.scale_regularization_loss" in result.diagnoses[0].message


def test_a_counter_counting_twice_as_fast():
    result = _compare(
        [_var("kernel"), _var("steps", "plain", integer=True)],
        _trace([W0, 0], [W0 + STEP, 1], [W0 + 2 * STEP, 2]),
        _trace([W0, 0], [W0 + STEP, 2], [W0 + 2 * STEP, 4]),
    )
    assert [d.cause for d in result.diagnoses] == [oracle.PER_REPLICA_UPDATE]
    assert "+2 instead of +1" in result.diagnoses[0].message


def test_batchnorm_statistics_are_expected_unless_strict():
    parts = ModelParts(batchnorm_layers=["batch_normalization"])
    variables = [_var("kernel"), _var("moving_variance", "non-trainable", batchnorm=True)]
    base = _trace([W0, W0], [W0 + STEP, W0 + STEP])
    other = _trace([W0, W0], [W0 + 1.03 * STEP, W0 + 0.8 * STEP])
    relaxed = _compare(variables, base, other, parts)
    assert relaxed.passed and [d.expected for d in relaxed.diagnoses] == [True]
    strict = _compare(variables, base, other, parts, strict=True)
    assert not strict.passed and strict.diagnoses[0].cause == oracle.BATCHNORM


def test_a_reported_loss_summed_over_replicas():
    result = _compare(
        [_var("kernel")],
        _trace([W0], [W0 + STEP], reported=[{"loss": 0.5}]),
        _trace([W0], [W0 + STEP], reported=[{"loss": 1.0}]),
    )
    assert [d.cause for d in result.diagnoses] == [oracle.REPORTED_SUMMED]
    assert result.diffs[-1].kind == "reported" and result.diffs[-1].step == 1


def test_other_shapes_are_unrecognised_and_fail():
    result = _compare([_var("kernel")], _trace([W0], [W0 + STEP]), _trace([W0], [W0 - STEP]))
    assert not result.passed and result.diagnoses[0].cause == oracle.UNRECOGNISED


def test_report_table_and_dict():
    comparison = _compare([_var("dense/kernel")], _trace([W0], [W0 + STEP]), _trace([W0], [W0 + 2 * STEP]))
    report = oracle.ReplicaReport(1, 16, 1, "custom loop", 1e-2, 1e-6, False, [comparison], ["a note"])
    text = report.format()
    assert "1 vs 2 replicas: MISMATCH" in text and "dense/kernel" in text and "note: a note" in text
    assert "cause (loss-averaged-per-replica)" in text
    assert report.to_dict()["comparisons"][0]["variables"][0]["step"] == 1
    error = oracle.ReplicaMismatchError(report)
    assert isinstance(error, AssertionError) and error.report is report and str(error) == text


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"replicas": (2,)}, "replicas must be two or more distinct counts"),
        ({"replicas": (1, 1)}, "replicas must be two or more distinct counts"),
        ({"steps": 0}, "steps must be a whole number >= 1"),
        ({"global_batch_size": 6, "replicas": (1, 4)}, "does not split evenly over 4 replicas"),
    ],
)
def test_bad_arguments_say_what_to_change(kwargs, message):
    arguments = {"global_batch_size": 16, **kwargs}
    with pytest.raises(oracle.OracleUsageError, match=message):
        oracle.compare_replicas(lambda strategy: None, None, **arguments)
