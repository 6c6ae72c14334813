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
# verbose=2 (output not a terminal): one line per epoch, "22/22 - 3s - ...".
EPOCH_LINE = re.compile(r"^(\d+)/\1 - \d+s - .*val_accuracy: \d\.\d{4}", flags=re.M)
SPEED = re.compile(r"^  examples/s:  ([\d,]+) in total, ([\d,]+) per replica", flags=re.M)


def environment(**env: str) -> dict[str, str]:
    # Unbuffered, so that what a killed run printed still reaches us. No
    # TF_CPP_MIN_LOG_LEVEL: the script keeps TensorFlow's C++ logs quiet itself.
    full_env = dict(os.environ, PYTHONUNBUFFERED="1", **env)
    full_env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    return full_env


# A bound, not a speed test: a run takes about a minute on an idle 2-core machine, but the
# five-epoch digits run took over 300 s on one shared with a dozen TensorFlow jobs.
def run(command: list[str], cwd: Path, timeout: int = 900, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        command, cwd=cwd, env=environment(**env), capture_output=True, text=True, timeout=timeout
    )


def train(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "mirrorguard.train", *args], cwd, **env)


def epochs_started(stdout: str) -> list[int]:
    return [int(n) for n in re.findall(r"^Epoch (\d+)/\d+", stdout, flags=re.M)]


def test_two_replicas_reach_the_accuracy_bar_on_digits(digits_run):
    # The default run, fit and custom loop (tests/train/conftest.py; it also draws the curves
    # and writes TensorBoard logs, which tests/train/test_train_report.py reads).
    result, tmp_path = digits_run, digits_run.folder
    assert result.returncode == 0, result.stderr[-3000:]
    # Nothing on stderr: no TensorFlow start-up logs, no warning of the script's making.
    assert result.stderr == ""
    assert "on 2 replicas with MirroredStrategy; global batch 64 = 32 per replica x 2" in result.stdout
    assert epochs_started(result.stdout) == [1, 2, 3, 4, 5]
    # Piped output gets one plain line per epoch (1,437 training digits / 64 = 22
    # steps), no progress bar redrawn with carriage returns and colour codes.
    assert [int(steps) for steps in EPOCH_LINE.findall(result.stdout)] == [22] * 5
    assert "\r" not in result.stdout and "\x1b" not in result.stdout
    accuracy = float(FINAL.search(result.stdout).group(1))
    assert accuracy >= 0.90, result.stdout[-2000:]
    assert (tmp_path / "digits.keras").is_file()
    # A finished run leaves no backup behind, so the next run starts afresh.
    assert not (tmp_path / "backup").exists()
    assert "Resuming" not in result.stdout
    # The summary ends the output: what was trained, how fast, on what.
    summary = result.stdout[result.stdout.index("Summary:\n"):]
    assert "  epochs:      5 (epochs 1-5, 22 steps of 64 examples each)\n" in summary
    assert "per replica (training steps of epochs 2-5)\n" in summary
    assert re.search(r"^  wall time:   \d+\.\d s$", summary, flags=re.M)
    total, per_replica = (float(n.replace(",", "")) for n in SPEED.search(summary).groups())
    assert total > 0 and per_replica == pytest.approx(total / 2, abs=1)
    assert "  replicas:    2 replicas with MirroredStrategy\n" in summary
    devices = re.search(r"^  devices:     (.*)$", summary, flags=re.M).group(1).split(", ")
    assert [device.rsplit("/", 1)[-1] for device in devices] == ["device:CPU:0", "device:CPU:1"]


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


def test_a_killed_fit_run_resumes_from_its_last_epoch_backup(tmp_path):
    # 8x8 synthetic images are used as they are (no resize); three epochs are the fewest that
    # leave one to resume after the two backed up.
    args = ["--dataset", "synthetic", "--image-size", "8", "--replicas", "2", "--epochs", "3",
            "--backup-dir", "backup"]
    killer = tmp_path / "killer.py"
    killer.write_text(textwrap.dedent(KILLER))

    killed = run([sys.executable, str(killer), *args], tmp_path)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-3000:]
    assert epochs_started(killed.stdout) == [1, 2, 3]
    metadata = json.loads((tmp_path / "backup" / "training_metadata.json").read_text())
    assert metadata["epoch"] == 2  # epochs 1 and 2 were backed up, epoch 3 was not

    resumed = train(args, tmp_path)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "Resuming from epoch 3\n" in resumed.stdout
    assert epochs_started(resumed.stdout) == [3]
    assert FINAL.search(resumed.stdout)
    assert not (tmp_path / "backup").exists()


def test_a_killed_custom_loop_resumes_from_its_checkpoint_on_tf_keras(tmp_path):
    # tf-keras here, Keras 3 in the accuracy test: the custom loop runs on both.
    args = ["--loop", "custom", "--dataset", "synthetic", "--replicas", "2", "--epochs", "3",
            "--backup-dir", "backup"]
    command = [sys.executable, "-m", "mirrorguard.train", *args]
    env = environment(TF_USE_LEGACY_KERAS="1")
    with subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True) as process:
        seen = []
        for line in process.stdout:
            seen.append(line)
            # The loop checkpoints an epoch before it announces the next one.
            if line.startswith("Epoch 3/3"):
                process.send_signal(signal.SIGKILL)
                break
        process.wait(timeout=300)
    assert process.returncode == -signal.SIGKILL, "".join(seen)
    assert epochs_started("".join(seen)) == [1, 2, 3]

    # Another model cannot resume this backup: one clear line, and the backup is kept.
    other = train([*args, "--model", "resnet50"], tmp_path, TF_USE_LEGACY_KERAS="1")
    assert other.returncode == 2, other.stderr[-3000:]
    assert other.stderr.startswith("mirrorguard train: error: the backup in backup does not match this model")
    assert other.stderr.count("\n") == 1  # nothing else: no traceback, no TensorFlow restore warnings
    assert (tmp_path / "backup" / "checkpoint").is_file()

    resumed = train(args, tmp_path, TF_USE_LEGACY_KERAS="1")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert resumed.stderr == ""
    assert "Resuming from epoch 3\n" in resumed.stdout
    assert epochs_started(resumed.stdout) == [3]
    assert len(EPOCH_LINE.findall(resumed.stdout)) == 1
    assert FINAL.search(resumed.stdout)
    assert not (tmp_path / "backup").exists()


def test_one_device_strategy_smoke(tmp_path):
    result = train(["--dataset", "synthetic", "--strategy", "onedevice", "--epochs", "1"], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "on 1 replica with OneDeviceStrategy; global batch 32 = 32 per replica x 1" in result.stdout
    assert "  replicas:    1 replica with OneDeviceStrategy\n" in result.stdout
    assert FINAL.search(result.stdout)


def test_cassava_from_a_tfds_folder_on_disk(tmp_path):
    # A tiny Cassava (20 train, 10 validation images of two sizes) written by
    # TFDS's own builder and test helpers; the script reads it with tfds.load.
    made = run([sys.executable, str(REPO / "tests" / "train" / "make_tiny_cassava.py"), str(tmp_path)], tmp_path)
    assert made.returncode == 0, made.stderr[-3000:]
    assert (tmp_path / "tfds" / "cassava" / "0.1.0" / "dataset_info.json").is_file()

    args = ["--dataset", "cassava", "--data-dir", "tfds", "--replicas", "2", "--per-replica-batch", "4",
            "--epochs", "1", "--backup-dir", "backup"]
    result = train(args, tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr == ""
    assert "global batch 8 = 4 per replica x 2" in result.stdout
    # 20 training images in whole global batches of 8: 2 steps.
    assert [int(steps) for steps in EPOCH_LINE.findall(result.stdout)] == [2]
    accuracy = float(FINAL.search(result.stdout).group(1))
    assert accuracy in {n / 10 for n in range(11)}  # 10 validation images


@pytest.mark.skipif(importlib.util.find_spec("tf_keras") is None, reason="multi-worker fit needs tf-keras")
def test_two_worker_localhost_recipe(tmp_path):
    recipe = REPO / "examples" / "multiworker_localhost.py"
    args = ["--dataset", "synthetic", "--epochs", "1", "--backup-dir", "backup", "--output", "mw.keras"]
    result = run([sys.executable, str(recipe), "--", *args], tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "worker exit codes: [0, 0]" in result.stdout
    for worker in (0, 1):
        assert f"[worker {worker}] Training small-resnet on 2 replicas" in result.stdout
        replicas_line = f"[worker {worker}]   replicas:    2 replicas with CollectiveAllReduceStrategy on 2 workers"
        assert replicas_line in result.stdout
        assert re.search(rf"\[worker {worker}\] Final validation accuracy: \d\.\d{{4}}", result.stdout)
    # Only the chief writes the model where --output says.
    assert result.stdout.count("Saved the model to mw.keras") == 1
    assert (tmp_path / "mw.keras").is_file()


# The custom loop on Keras 3 under two workers (training, the final accuracy, the chief removing
# the one backup) is test_train_multiworker.py's custom-keras3 case, which also resumes; the
# recipe's launching and its --output are the test above, so a second recipe cluster would only
# repeat them.


def test_multiworker_fit_under_keras_3_explains_the_workarounds(tmp_path):
    cluster = json.dumps({"cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 0}})
    result = train(["--strategy", "multiworker"], tmp_path, TF_CONFIG=cluster, TF_USE_LEGACY_KERAS="0")
    assert result.returncode == 2
    assert "TF_USE_LEGACY_KERAS=1" in result.stderr and "--loop custom" in result.stderr
    assert "Traceback" not in result.stderr
