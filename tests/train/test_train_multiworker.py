"""`mirrorguard train --strategy multiworker` on two local workers: killed together, resumed together.

Each worker is a `mirrorguard.train.main(argv)` call in a process of its own, started by
mirrorguard.testkit.Workers with one TF_CONFIG cluster on 127.0.0.1. Both are killed (SIGKILL,
no clean-up, like a preempted cluster) as worker 0 starts epoch 2, then the same command runs
again: both must resume at epoch 2 from the one --backup-dir they share.

Importing TensorFlow dominates (about 10 s per worker on an idle 2-core machine, a minute when
it is loaded), so the bounds below are generous; every run is killed at its bound.
"""

from __future__ import annotations

import importlib.util

import pytest

from mirrorguard.testkit import Workers
from tests.train.test_train_runs import FINAL, epochs_started

pytestmark = [pytest.mark.tf, pytest.mark.slow]

BOUND = 300  # seconds for one run of the cluster, start-up included
ARGV = ["--strategy", "multiworker", "--dataset", "synthetic", "--epochs", "3", "--image-size", "8",
        "--backup-dir", "backup"]
needs_tf_keras = pytest.mark.skipif(importlib.util.find_spec("tf_keras") is None, reason="needs tf-keras")

# Keras 3 cannot fit() under MultiWorkerMirroredStrategy (keras-team/keras#20585): fit on
# tf-keras only; the custom loop on Keras 3. The custom loop's code is the same on both
# flavours (mirrorguard/train.py has no branch on it), and its tf-keras resume is
# test_train_runs.py's killed custom loop, so a third cluster (four more TensorFlow
# processes, over a minute) would test nothing these two do not.
CASES = [
    pytest.param("fit", "1", "chief/checkpoint", id="fit-tf_keras", marks=needs_tf_keras),
    pytest.param("custom", "0", "checkpoint", id="custom-keras3"),
]


@pytest.mark.parametrize(("loop", "legacy", "chief_checkpoint"), CASES)
def test_both_workers_killed_as_epoch_2_starts_resume_at_epoch_2(tmp_path, loop, legacy, chief_checkpoint):
    argv = [*ARGV, "--loop", loop]
    env = {"TF_USE_LEGACY_KERAS": legacy}

    with Workers("mirrorguard.train:main", 2, args=(argv,), env=env, cwd=tmp_path) as cluster:
        cluster.wait_for_output(0, r"^Epoch 2/3", timeout=BOUND)
        cluster.kill()
    killed = [cluster.output(index) for index in (0, 1)]
    assert epochs_started(killed[0]) == [1, 2], killed[0][-3000:]
    # One backup for the cluster, written by the chief; no folder per worker.
    assert (tmp_path / "backup" / chief_checkpoint).is_file(), sorted(p.name for p in tmp_path.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup"]

    with Workers("mirrorguard.train:main", 2, args=(argv,), env=env, cwd=tmp_path) as cluster:
        codes = cluster.wait(BOUND)
    resumed = [cluster.output(index) for index in (0, 1)]
    assert codes == [0, 0], resumed
    for output in resumed:
        assert "Training small-resnet on 2 replicas with CollectiveAllReduceStrategy" in output
        assert "Resuming from epoch 2\n" in output, output[-3000:]
        assert epochs_started(output) == [2, 3], output[-3000:]
        assert FINAL.search(output)
        assert "  epochs:      2 (epochs 2-3," in output
    # Finished: the chief removed the backup, so the next run starts afresh.
    assert not (tmp_path / "backup").exists()
