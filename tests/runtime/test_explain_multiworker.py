"""explain_errors on the multi-worker failures, raised for real (issue 20, runtime item 2).

    python tests/runtime/test_explain_multiworker.py worker 0 PORT0,PORT1   # one of two local workers
    python tests/runtime/test_explain_multiworker.py startup                 # collectives set up too late
    python tests/runtime/test_explain_multiworker.py ps                      # ParameterServerStrategy, in process

Two worker processes on loopback ports with TF_CONFIG (MultiWorkerMirroredStrategy),
and one process holding an in-process ParameterServerStrategy cluster (one worker, one
parameter server, as TensorFlow's tutorial sets it up). Keras 3 is the flavour whose
fit() fails there; the sharding and start-up errors are TensorFlow's own, whichever Keras.
Every process the tests start is bounded by a timeout and killed by its handle.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from pathlib import Path

from mirrorguard.testkit.workers import free_ports, tf_config

PREFIX = "MG-EXPLAIN "
REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 600  # a loaded 2-core machine needs minutes to start several TensorFlows


def _observe(program) -> dict:
    import mirrorguard

    try:
        with mirrorguard.explain_errors():
            program()
    except Exception as error:  # noqa: BLE001 - the result is the observation
        return {
            "error": type(error).__name__,
            "message": str(error),
            "cause": type(error.__cause__).__name__ if error.__cause__ else None,
            "traceback": traceback.format_exc()[-2000:],
        }
    return {"error": None}


def _worker(index: int, ports: str) -> dict:
    os.environ["TF_CONFIG"] = tf_config([f"127.0.0.1:{p}" for p in ports.split(",")], index)
    import numpy as np
    import tensorflow as tf

    keras = tf.keras
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    x = np.random.default_rng(index).normal(size=(64, 5)).astype("float32")
    y = np.ones((64, 1), "float32")
    results = {}

    def keras3_fit():
        with strategy.scope():
            model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, batch_size=8, verbose=0)

    def file_sharding():
        # One TFRecord file per worker's dataset, FILE policy, two workers: too few files.
        folder = Path(os.environ["MG_TMP"]) / f"worker{index}"
        folder.mkdir(parents=True, exist_ok=True)
        path = str(folder / "part-0.tfrecord")
        with tf.io.TFRecordWriter(path) as writer:
            for _ in range(8):
                writer.write(b"row")
        dataset = tf.data.Dataset.list_files([path], shuffle=False).interleave(tf.data.TFRecordDataset).batch(2)
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.FILE
        for _ in strategy.experimental_distribute_dataset(dataset.with_options(options)):
            pass

    if os.environ.get("TF_USE_LEGACY_KERAS") != "1":
        results["keras3_fit"] = _observe(keras3_fit)
    # Last: a worker that fails here leaves the collectives of the other aborted.
    results["file_sharding"] = _observe(file_sharding)
    return results


def _startup() -> dict:
    # Nobody listens on these ports: it fails before connecting.
    os.environ["TF_CONFIG"] = tf_config([f"127.0.0.1:{p}" for p in free_ports(2)], 0)
    import tensorflow as tf

    def late_strategy():
        tf.constant(1.0) + 1.0  # TensorFlow starts here
        tf.distribute.MultiWorkerMirroredStrategy()

    return {"late_strategy": _observe(late_strategy)}


def _parameter_server() -> dict:
    import numpy as np
    import tensorflow as tf

    keras = tf.keras
    worker, ps = free_ports(2)
    spec = tf.train.ClusterSpec({"worker": [f"127.0.0.1:{worker}"], "ps": [f"127.0.0.1:{ps}"]})
    servers = [
        tf.distribute.Server(spec, job_name=job, task_index=0, protocol="grpc", start=True) for job in ("worker", "ps")
    ]
    strategy = tf.distribute.ParameterServerStrategy(
        tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
    )
    x = np.zeros((64, 5), "float32")
    y = np.zeros((64, 1), "float32")

    def keras3_fit():
        with strategy.scope():
            model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8).repeat()
        model.fit(dataset, epochs=1, steps_per_epoch=2, verbose=0)

    results = {"keras3_fit": _observe(keras3_fit), "servers": len(servers)}
    return results


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "worker":
        found = _worker(int(sys.argv[2]), sys.argv[3])
    elif mode == "startup":
        found = _startup()
    else:
        found = _parameter_server()
    print(PREFIX + json.dumps(found), flush=True)
    os._exit(0)  # the in-process servers and collectives would keep the process alive


import pytest  # noqa: E402 - the worker processes above need no pytest

pytestmark = pytest.mark.tf


def _start(args, flavour="keras3", tmp=None):
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2", MG_TMP=str(tmp or ""))
    env.pop("TF_CONFIG", None)
    env["TF_USE_LEGACY_KERAS"] = "1" if flavour == "tfkeras" else "0"
    return subprocess.Popen(
        [sys.executable, __file__, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _results(processes) -> list[dict]:
    """Each process's results; every process is killed if any runs past the timeout."""
    outputs = []
    try:
        for process in processes:
            out, err = process.communicate(timeout=TIMEOUT)
            outputs.append((out, err))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    found = []
    for out, err in outputs:
        lines = [line for line in out.splitlines() if line.startswith(PREFIX)]
        assert lines, f"no results:\n{err[-4000:]}"
        found.append(json.loads(lines[-1][len(PREFIX) :]))
    return found


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Results of: two MWMS workers (Keras 3), the late-strategy process, the PSS process."""
    ports = ",".join(str(p) for p in free_ports(2))
    tmp = tmp_path_factory.mktemp("shards")
    processes = [_start(["worker", str(i), ports], tmp=tmp) for i in range(2)]
    processes += [_start(["startup"]), _start(["ps"])]
    worker0, worker1, startup, ps = _results(processes)
    return {"workers": [worker0, worker1], "startup": startup, "ps": ps}


def _shown(result) -> str:
    return f"{result['error']}: {result.get('message', '')[:1500]}\n{result.get('traceback', '')}"


def test_keras3_fit_under_multiworker_mirrored_names_the_two_ways_out(runs):
    for result in (w["keras3_fit"] for w in runs["workers"]):
        assert result["error"] == "MirrorGuardError", _shown(result)
        assert result["cause"] == "ValueError"
        message = result["message"]
        assert message.startswith("Keras 3 cannot run `fit()` under MultiWorkerMirroredStrategy")
        assert "CollectiveAllReduceStrategy" not in message.split("Original error")[0]
        assert "TF_USE_LEGACY_KERAS=1" in message and "strategy.run(" in message
        assert "keras-team/keras#20585" in message


def test_keras3_fit_under_parameter_server_names_the_two_ways_out(runs):
    result = runs["ps"]["keras3_fit"]
    assert result["error"] == "MirrorGuardError", _shown(result)
    assert result["cause"] == "ValueError"
    assert result["message"].startswith("Keras 3 cannot run `fit()` under ParameterServerStrategy")
    assert "TF_USE_LEGACY_KERAS=1" in result["message"] and "ClusterCoordinator" in result["message"]


def test_file_sharding_over_too_few_files(runs):
    results = [w["file_sharding"] for w in runs["workers"]]
    explained = [r for r in results if r["error"] == "MirrorGuardError"]
    assert explained, [_shown(r) for r in results]
    for result in explained:
        assert result["cause"] == "InvalidArgumentError"
        assert result["message"].startswith("The dataset reads 1 file, but auto-sharding by FILE")
    # A worker whose peer failed first gets TensorFlow's own collective error, untouched.
    for result in results:
        if result not in explained:
            assert result["error"] in ("UnavailableError", "InvalidArgumentError", "CancelledError"), _shown(result)
            assert result["cause"] is None


def test_strategy_created_after_tensorflow_started(runs):
    result = runs["startup"]["late_strategy"]
    assert result["error"] == "MirrorGuardError", _shown(result)
    assert result["cause"] == "RuntimeError"
    assert result["message"].startswith("`MultiWorkerMirroredStrategy()` was created after TensorFlow had already")
    assert "right after `import tensorflow`" in result["message"]
