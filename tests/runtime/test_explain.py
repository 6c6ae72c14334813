"""explain_errors on the exact messages TensorFlow and Keras raise; no TensorFlow needed."""

from __future__ import annotations

import re
import subprocess
import sys
import traceback

import pytest

import mirrorguard
from mirrorguard import LossReductionError, MirrorGuardError, NotMirroredError, UnevenBatchError


class InvalidArgumentError(Exception):
    """Stands in for tf.errors.InvalidArgumentError: rules match by type name."""


class StrategyBase:
    """Stands in for a tf.distribute strategy: recognised by class name and module."""

    __module__ = "tensorflow.python.distribute.distribute_lib"

    def __init__(self, replicas):
        self.num_replicas_in_sync = replicas


STRAT = "<tensorflow.python.distribute.mirrored_strategy.MirroredStrategy object at 0x7f0>"
DEFAULT = "<tensorflow.python.distribute.distribute_lib._DefaultDistributionStrategy object at 0x7f1>"
VAR = (
    "<tf.Variable 'dense/kernel:0' shape=(3, 1) dtype=float32, numpy=\narray([[ 0.2215324 ],\n"
    "       [ 0.6197104 ],\n       [-0.76121336]], dtype=float32)>"
)

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
    "tfkeras_loss_reduction": (
        ValueError(
            "in user code:\n\n    File \"train.py\", line 57, in replica_step  *\n        loss = loss_fn(y, p)\n"
            "    ValueError: Please use `tf.keras.losses.Reduction.SUM` or `tf.keras.losses.Reduction.NONE` "
            "for loss reduction when losses are used with `tf.distribute.Strategy`, except for specifying "
            "losses in `Model.compile()` for use by the built-in training looop `Model.fit()`.\n"
            "    Please see https://www.tensorflow.org/tutorials/distribute/custom_training for more details.\n"
        ),
        LossReductionError,
    ),
}


def uneven_addn():
    """A fresh error each time: a raised exception keeps the frames it went through."""
    return InvalidArgumentError(
        "{{function_node __wrapped__AddN_N_2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Inputs to operation AddN of type AddN must have the same size and shape.  "
        "Input 0: [17,20] != input 1: [16,20] [Op:AddN] name: "
    )


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


def _parts(message):
    head, original = message.split("\n\nOriginal error: ")
    cause, fix = head.split(" Fix: ")
    return cause, fix, original


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_failures_are_explained(name):
    original, expected = KNOWN[name]
    with pytest.raises(expected) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    explained = caught.value
    assert isinstance(explained, MirrorGuardError) and isinstance(explained, RuntimeError)
    assert explained.__cause__ is original
    cause, fix, quoted = _parts(str(explained))
    assert cause.endswith(".") and fix.endswith(".")
    assert "scope" in cause or "replica" in cause
    # The original is quoted whole, minus the variables' values.
    assert quoted.startswith(f"{type(original).__name__}: ")
    assert "numpy=" not in quoted and "0.2215324" not in quoted
    without_values = re.sub(r", numpy=.*?(?=>)", "", str(original), flags=re.S).strip()
    assert quoted == f"{type(original).__name__}: {without_values}"


@pytest.mark.parametrize("name", ["tfkeras_variable", "tfkeras_v1_variable", "keras3_backbone"])
def test_variables_made_outside_the_scope_are_named(name):
    original, _ = KNOWN[name]
    with pytest.raises(NotMirroredError) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    cause, _, quoted = _parts(str(caught.value))
    assert cause.startswith("The variable `dense/kernel` (layer `dense`) was created outside `strategy.scope()`")
    assert caught.value.variables == ("dense/kernel",)
    assert "<tf.Variable 'dense/kernel:0' shape=(3, 1) dtype=float32>" in quoted


def test_loss_object_in_a_replica_function_is_explained():
    original, _ = KNOWN["tfkeras_loss_reduction"]
    with pytest.raises(LossReductionError) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    cause, fix, quoted = _parts(str(caught.value))
    assert "replica function" in cause
    assert "Reduction.NONE" in fix and "tf.nn.compute_average_loss(" in fix
    assert 'File "train.py", line 57, in replica_step' in quoted  # where the user called it


def _with_a_strategy_in_the_frame(error, replicas):
    strategy = StrategyBase(replicas)  # noqa: F841 - a frame holding a strategy, as user code does
    raise error


@pytest.mark.parametrize("replicas", [None, 1, 2])
def test_addn_shape_error_without_its_failing_call_passes_through(replicas):
    # Any tf.add_n of mismatched tensors raises this. It is Keras 3's first-batch check
    # only when the error came out of its fit()/evaluate(), and a reduce with axis=None
    # only when TensorFlow's reduce frame says so; a strategy nearby is no evidence.
    original = uneven_addn()
    with pytest.raises(InvalidArgumentError) as caught:
        with mirrorguard.explain_errors():
            if replicas is None:
                _raise(original)
            _with_a_strategy_in_the_frame(original, replicas)
    assert caught.value is original and caught.value.__cause__ is None


# Exact messages of TensorFlow 2.21 and Keras 3.15 (tests/runtime/test_explain_multiworker.py
# raises them for real on two local workers).
FILE_SHARDING = (
    "{{function_node __wrapped__IteratorGetNextAsOptional_device_/job:worker/replica:0/task:0/device:CPU:0}} "
    "Could not apply FILE based sharding: the dataset only has 1 file(s), which is not enough for the required "
    "2 shards/workers. If you are using datasets with distribution strategy, consider setting the auto sharding "
    "policy to either DATA or OFF using the `experimental_distribute.auto_shard_policy` option of "
    "`tf.data.Options()`. Or, split your input files into a larger number of small files such that number of "
    "files is greater than number of shards/workers.\n\t [[{{node MultiDeviceIteratorGetNextFromShard}}]]\n\t "
    "[[RemoteCall]] [Op:IteratorGetNextAsOptional] name: "
)
KERAS3_MWMS = (
    "Attempt to convert a value (PerReplica:{\n  0: <tf.Tensor: shape=(4, 5), dtype=float32, numpy=\n"
    "array([[0.1774866 , 0.6687865 , 0.11888294, 0.928903  , 0.6909884 ]],\n      dtype=float32)>\n}) with an "
    "unsupported type (<class 'tensorflow.python.distribute.values.PerReplica'>) to a Tensor."
)


def test_file_sharding_over_too_few_files_says_both_numbers_and_the_ways_out():
    with pytest.raises(MirrorGuardError) as caught:
        with mirrorguard.explain_errors():
            _raise(InvalidArgumentError(FILE_SHARDING))
    message = str(caught.value)
    assert message.startswith("The dataset reads 1 file, but auto-sharding by FILE gives each of the 2 workers")
    assert "AutoShardPolicy.DATA" in message and "at least 2 files" in message


def test_collectives_configured_late_say_to_create_the_strategy_first():
    with pytest.raises(MirrorGuardError) as caught:
        with mirrorguard.explain_errors():
            _raise(RuntimeError("Collective ops must be configured at program startup"))
    message = str(caught.value)
    # No strategy object in the frames: the message says what usually does it.
    assert message.startswith("Collective ops (a `MultiWorkerMirroredStrategy`, usually) were set up after")
    assert "right after `import tensorflow`" in message


def test_keras3_per_replica_failure_needs_its_fit_call_under_a_multi_worker_strategy():
    # The same ValueError from anywhere else (a user's own tf.convert_to_tensor) is not Keras 3's fit().
    original = ValueError(KERAS3_MWMS)
    with pytest.raises(ValueError) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    assert caught.value is original


def test_a_moved_keras_internal_costs_the_evidence_loudly(monkeypatch):
    from mirrorguard.runtime import compat

    def moved(_traceback):
        raise compat.CompatError("keras.src.utils.traceback_utils.filter_traceback is gone")

    monkeypatch.setattr(compat, "keras_calls", moved)
    original = uneven_addn()
    with pytest.warns(RuntimeWarning, match="filter_traceback is gone"):
        with pytest.raises(InvalidArgumentError) as caught:  # no evidence of fit(): not explained
            with mirrorguard.explain_errors():
                _raise(original)
    assert caught.value is original


def test_the_chained_original_keeps_no_weight_dump():
    # tf-keras names a variable with all its values; Python prints __cause__ first.
    original, _ = KNOWN["tfkeras_variable"]
    original = type(original)(*original.args)  # a fresh one: explaining shortens it
    with pytest.raises(NotMirroredError) as caught:
        with mirrorguard.explain_errors():
            _raise(original)
    assert caught.value.__cause__ is original
    assert "numpy=" not in str(original) and "was not created in the distribution strategy scope" in str(original)
    printed = "".join(traceback.format_exception(caught.value))
    assert "0.2215324" not in printed and "numpy=" not in printed
    assert printed.index("The above exception was the direct cause") < printed.index("The variable `dense/kernel`")


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
