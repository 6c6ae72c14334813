"""explain_errors on the exact messages TensorFlow and Keras raise; no TensorFlow needed."""

from __future__ import annotations

import subprocess
import sys
import traceback

import pytest

import mirrorguard
from mirrorguard import MirrorGuardError, NotMirroredError, UnevenBatchError


class InvalidArgumentError(Exception):
    """Stands in for tf.errors.InvalidArgumentError: rules match by type name."""


STRAT = "<tensorflow.python.distribute.mirrored_strategy.MirroredStrategy object at 0x7f0>"
DEFAULT = "<tensorflow.python.distribute.distribute_lib._DefaultDistributionStrategy object at 0x7f1>"
VAR = "<tf.Variable 'dense/kernel:0' shape=(20, 1) dtype=float32, numpy=...>"

# The messages as TF 2.21, Keras 3.15 and tf-keras 2.21 build them.
KNOWN = {
    "keras3_model_outside": (RuntimeError(f'Need to be inside "with strategy.scope()" for {STRAT}'), NotMirroredError),
    "keras3_mixing": (
        RuntimeError(f"Mixing different tf.distribute.Strategy objects: {STRAT} is not {DEFAULT}"),
        NotMirroredError,
    ),
    "keras3_backbone": (
        ValueError(
            "`colocate_vars_with` must only be passed a variable created in this "
            f"tf.distribute.Strategy.scope(), not: {VAR}"
        ),
        NotMirroredError,
    ),
    "tfkeras_variable": (
        ValueError(
            f"Variable ({VAR}) was not created in the distribution strategy scope of ({STRAT}). It is "
            "most likely because some layers, model, or optimizer was being created outside the "
            "distribution strategy scope. Try to make sure your code looks similar to the following.\n"
            "with strategy.scope():\n  model=_create_model()\n  model.compile(...)"
        ),
        NotMirroredError,
    ),
    "tfkeras_v1_variable": (
        ValueError(
            f"Variable ({VAR}) was not created in the distribution strategy scope of ({STRAT}). It is "
            "most likely due to not all layers or the model or optimizer being created outside the "
            "distribution strategy scope. Try to make sure your code looks similar to the following.\n"
            "with strategy.scope():\n  model=_create_model()\n  model.compile(...)"
        ),
        NotMirroredError,
    ),
    "tfkeras_metric": (
        ValueError(
            "Metric (<MeanAbsoluteError name=mae>) passed to `model.compile` was created inside a "
            "different distribution strategy scope than the model. All metrics must be created in the "
            f"same distribution strategy scope as the model (in this case {STRAT}). If you pass in a "
            "string identifier for a metric to compile, the metric will automatically be created in "
            "the correct distribution strategy scope."
        ),
        NotMirroredError,
    ),
    "tfkeras_optimizer": (
        ValueError(
            "Optimizer (<Adam>) passed to `model.compile` was created inside a different distribution "
            "strategy scope than the model. All optimizers must be created in the same distribution "
            f"strategy scope as the model (in this case {STRAT}). If you pass in a string identifier "
            "for an optimizer to compile, the optimizer will automatically be created in the correct "
            "distribution strategy scope."
        ),
        NotMirroredError,
    ),
    "tfkeras_tpu_metric": (
        ValueError(
            "Trying to run metric.update_state in replica context when the metric was not created in "
            "TPUStrategy scope. Make sure the keras Metric is created in TPUstrategy scope. "
        ),
        NotMirroredError,
    ),
    "keras3_uneven_first_batch": (
        InvalidArgumentError(
            "{{function_node __wrapped__AddN_N_2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
            "Inputs to operation AddN of type AddN must have the same size and shape.  "
            "Input 0: [17,20] != input 1: [16,20] [Op:AddN] name: "
        ),
        UnevenBatchError,
    ),
}

UNRELATED = {
    "plain_runtime_error": RuntimeError("CUDA out of memory"),
    "addn_feature_mismatch": InvalidArgumentError(
        "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: [16,20] != input 1: [16,21]"
    ),
    "right_text_wrong_type": KeyError('Need to be inside "with strategy.scope()" for x'),
    "value_error": ValueError("Input 0 of layer dense is incompatible with the layer"),
}


def _raise(error):
    raise error


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_failures_are_explained(name):
    original, expected = KNOWN[name]
    with pytest.raises(expected) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    explained = caught.value
    assert isinstance(explained, MirrorGuardError) and isinstance(explained, RuntimeError)
    assert explained.__cause__ is original
    message = str(explained)
    cause, fix = message.split(" Fix: ")
    assert cause.endswith(".") and fix.endswith(".")
    assert ("scope" if expected is NotMirroredError else "batch") in message
    assert "Fix:" not in cause


def test_uneven_first_batch_names_the_rows():
    original, _ = KNOWN["keras3_uneven_first_batch"]
    with pytest.raises(UnevenBatchError) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    assert caught.value.split == (17, 16)
    assert "17 rows and another 16" in str(caught.value)
    assert "strategy.num_replicas_in_sync" in str(caught.value)


@pytest.mark.parametrize("name", sorted(UNRELATED))
def test_other_errors_pass_through_untouched(name):
    original = UNRELATED[name]
    with pytest.raises(type(original)) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    assert caught.value is original
    assert caught.value.__cause__ is None
    frames = [frame.name for frame in traceback.extract_tb(caught.value.__traceback__)]
    assert "_raise" in frames  # the raising frame is still there


def test_works_as_a_decorator_and_keeps_return_values():
    @mirrorguard.explain_errors()
    def train(fail):
        if fail:
            raise RuntimeError("Mixing different tf.distribute.Strategy objects: a is not b")
        return "trained"

    assert train(False) == "trained"
    with pytest.raises(NotMirroredError):
        train(True)
    with pytest.raises(NotMirroredError):  # reusable
        train(True)


def test_mirrorguard_errors_are_not_wrapped_again():
    error = UnevenBatchError("already explained")
    with pytest.raises(UnevenBatchError) as caught:
        with mirrorguard.explain_errors():
            raise error
    assert caught.value is error


def test_importing_mirrorguard_and_its_guards_package_does_not_import_tensorflow():
    code = (
        "import sys, mirrorguard, mirrorguard.callbacks, mirrorguard.explain\n"
        "mirrorguard.explain_errors\n"
        "heavy = [m for m in ('tensorflow', 'keras', 'tf_keras') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
