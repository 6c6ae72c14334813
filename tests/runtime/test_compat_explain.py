"""The private TensorFlow/Keras touches of explain_errors (runtime/compat.py), on both flavours.

Each test fails when the thing read has moved: Keras's error-handler frame and its
locals, TensorFlow's `Strategy.reduce` frame and its arguments. Run as a script, this
file is the process that reads them (2 logical CPUs, the flavour TF_USE_LEGACY_KERAS picks).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PREFIX = "MG-COMPAT "
REPO = Path(__file__).resolve().parents[2]


def _observe() -> dict:  # runs in the probe process only
    import numpy as np
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    keras = tf.keras
    from mirrorguard.runtime import compat

    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    found = {}

    with strategy.scope():
        model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
    x, y = np.zeros((8, 3), "float32"), np.zeros((8, 1), "float32")  # the wrong width: fit() raises
    try:
        model.fit(x, y, batch_size=4, verbose=0)
    except Exception as error:  # noqa: BLE001 - what compat reads from it is the observation
        calls = compat.keras_calls(error.__traceback__)
        found["fit"] = [
            {
                "name": c.name,
                "receiver_is_model": c.receiver is model,
                "x_is_ours": (c.args[1:] or (c.kwargs.get("x"),))[0] is x,
                "flavour": c.flavour,
            }
            for c in calls
        ]
    # A plain exception that never went through Keras: no calls.
    try:
        raise ValueError("not Keras")
    except ValueError as error:
        found["plain"] = len(compat.keras_calls(error.__traceback__))

    per_row = strategy.run(lambda: tf.zeros([4 - tf.distribute.get_replica_context().replica_id_in_sync_group]))
    try:
        strategy.reduce("SUM", per_row, axis=None)
    except Exception as error:  # noqa: BLE001
        calls = compat.strategy_reduce_calls(error.__traceback__)
        found["reduce"] = [
            {
                "strategy_is_ours": c.strategy is strategy,
                "op": str(getattr(c.reduce_op, "value", c.reduce_op)),
                "axis": c.axis,
                "value_is_ours": c.value is per_row,
            }
            for c in calls
        ]

    rows = tf.data.Dataset.from_tensor_slices((np.zeros((20, 9), "float32"), np.zeros((20, 1), "float32")))
    found["batch_size"] = {
        "drop_remainder": compat.dataset_batch_size(rows.batch(9, drop_remainder=True)),
        "batched_then_prefetched": compat.dataset_batch_size(rows.batch(4).prefetch(2)),
        "unbatched": compat.dataset_batch_size(rows),
        "not_a_dataset": compat.dataset_batch_size(x),
    }

    # Moved: TensorFlow without its ComputeBatchSize op must raise, not say "unbatched".
    from tensorflow.python.ops import gen_experimental_dataset_ops as ops

    saved_op = ops.compute_batch_size
    del ops.compute_batch_size
    try:
        compat.dataset_batch_size(rows)
        found["op_moved"] = None
    except compat.CompatError as error:
        found["op_moved"] = str(error)
    finally:
        ops.compute_batch_size = saved_op

    # Moved: Keras without its traceback wrapper must raise, not find nothing.
    module = sys.modules[compat._KERAS_TRACEBACK_MODULES[found["fit"][0]["flavour"]]]
    saved = module.filter_traceback
    del module.filter_traceback
    try:
        compat.keras_calls(None)
        found["moved"] = None
    except compat.CompatError as error:
        found["moved"] = str(error)
    finally:
        module.filter_traceback = saved
    return found


if __name__ == "__main__":
    print(PREFIX + json.dumps(_observe()), flush=True)
    sys.exit(0)


import pytest  # noqa: E402 - the probe process above needs no pytest

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module", params=["keras3", "tfkeras"])
def observed(request):
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2")
    env.pop("TF_CONFIG", None)
    env["TF_USE_LEGACY_KERAS"] = "1" if request.param == "tfkeras" else "0"
    done = subprocess.run([sys.executable, __file__], env=env, capture_output=True, text=True, timeout=900)
    lines = [line for line in done.stdout.splitlines() if line.startswith(PREFIX)]
    assert lines, done.stderr[-4000:]
    return request.param, json.loads(lines[-1][len(PREFIX) :])


def test_keras_calls_finds_fit_with_its_model_and_input(observed):
    flavour, found = observed
    fits = [c for c in found["fit"] if c["name"] == "fit"]
    assert fits, found["fit"]
    assert fits[0] == {"name": "fit", "receiver_is_model": True, "x_is_ours": True, "flavour": flavour}
    assert found["plain"] == 0


def test_strategy_reduce_calls_holds_the_arguments(observed):
    _, found = observed
    assert found["reduce"], "Strategy.reduce's frame was not found"
    assert found["reduce"][0] == {"strategy_is_ours": True, "op": "SUM", "axis": None, "value_is_ours": True}


def test_dataset_batch_size_tells_batches_from_examples(observed):
    _, found = observed
    assert found["batch_size"] == {
        "drop_remainder": 9,
        "batched_then_prefetched": 4,
        "unbatched": None,
        "not_a_dataset": None,
    }


def test_a_moved_keras_wrapper_or_tensorflow_op_is_loud(observed):
    _, found = observed
    assert found["moved"] is not None and "filter_traceback is gone" in found["moved"]
    assert found["op_moved"] is not None and "ComputeBatchSize" in found["op_moved"]
