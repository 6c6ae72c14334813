"""The reference script end to end, each run in its own process on logical CPU devices."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = [pytest.mark.tf, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
FINAL = re.compile(r"Final validation accuracy: (\d\.\d{4})")


def run(command: list[str], cwd: Path, timeout: int = 300, **env: str) -> subprocess.CompletedProcess:
    # Unbuffered, so that what a killed run printed still reaches us.
    full_env = dict(os.environ, PYTHONUNBUFFERED="1", TF_CPP_MIN_LOG_LEVEL="2", **env)
    return subprocess.run(
        command, cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout
    )


def train(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "mirrorguard.train", *args], cwd, **env)


def epochs_started(stdout: str) -> list[int]:
    return [int(n) for n in re.findall(r"^Epoch (\d+)/\d+", stdout, flags=re.M)]


def test_two_replicas_reach_the_accuracy_bar_on_digits(tmp_path):
    result = train(["--replicas", "2", "--output", "digits.keras", "--backup-dir", "backup"], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "on 2 replica(s) with MirroredStrategy; global batch 64 = 32 per replica x 2" in result.stdout
    assert epochs_started(result.stdout) == [1, 2, 3, 4, 5]
    accuracy = float(FINAL.search(result.stdout).group(1))
    assert accuracy >= 0.90, result.stdout[-2000:]
    assert (tmp_path / "digits.keras").is_file()
    # A finished run leaves no backup behind, so the next run starts afresh.
    assert not (tmp_path / "backup").exists()


KILLER = """
    import os, signal, sys
    import tensorflow as tf
    from mirrorguard import train

    class KillMidEpoch(tf.keras.callbacks.Callback):
        # Dies like a preempted machine: SIGKILL, no cleanup, halfway through epoch 3.
        def on_epoch_begin(self, epoch, logs=None):
            self.epoch = epoch

        def on_train_batch_end(self, batch, logs=None):
            if self.epoch == 2 and batch == 1:
                os.kill(os.getpid(), signal.SIGKILL)

    train.run(train.parse_args(sys.argv[1:]), extra_callbacks=[KillMidEpoch()])
"""


def test_a_killed_run_resumes_from_its_last_epoch_backup(tmp_path):
    args = ["--dataset", "synthetic", "--replicas", "2", "--epochs", "4", "--backup-dir", "backup"]
    killer = tmp_path / "killer.py"
    killer.write_text(textwrap.dedent(KILLER))

    killed = run([sys.executable, str(killer), *args], tmp_path)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-3000:]
    assert epochs_started(killed.stdout) == [1, 2, 3]
    metadata = json.loads((tmp_path / "backup" / "training_metadata.json").read_text())
    assert metadata["epoch"] == 2  # epochs 1 and 2 were backed up, epoch 3 was not

    resumed = train(args, tmp_path)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert epochs_started(resumed.stdout) == [3, 4]
    assert FINAL.search(resumed.stdout)
    assert not (tmp_path / "backup").exists()


def test_one_device_strategy_smoke(tmp_path):
    result = train(["--dataset", "synthetic", "--strategy", "onedevice", "--epochs", "1"], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "on 1 replica(s) with OneDeviceStrategy" in result.stdout
    assert FINAL.search(result.stdout)


@pytest.mark.skipif(importlib.util.find_spec("tf_keras") is None, reason="multi-worker fit needs tf-keras")
def test_two_worker_localhost_recipe(tmp_path):
    recipe = REPO / "examples" / "multiworker_localhost.py"
    args = ["--dataset", "synthetic", "--epochs", "1", "--backup-dir", "backup", "--output", "mw.keras"]
    result = run([sys.executable, str(recipe), "--", *args], tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "worker exit codes: [0, 0]" in result.stdout
    for worker in (0, 1):
        assert f"[worker {worker}] Training small-resnet on 2 replica(s)" in result.stdout
        assert re.search(rf"\[worker {worker}\] Final validation accuracy: \d\.\d{{4}}", result.stdout)
    # Only the chief writes the model where --output says.
    assert result.stdout.count("Saved the model to mw.keras") == 1
    assert (tmp_path / "mw.keras").is_file()


def test_multiworker_under_keras_3_explains_the_tf_keras_workaround(tmp_path):
    cluster = json.dumps({"cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 0}})
    result = train(["--strategy", "multiworker"], tmp_path, TF_CONFIG=cluster, TF_USE_LEGACY_KERAS="0")
    assert result.returncode == 2
    assert "TF_USE_LEGACY_KERAS=1" in result.stderr
    assert "Traceback" not in result.stderr
