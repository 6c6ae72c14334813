"""The replica oracle's examples in docs/testkit.md run, and say what the docs say they say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "testkit.md"


def _oracle_blocks() -> list[str]:
    section = DOC.read_text().split("## The replica oracle", 1)[1]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_the_examples_are_where_the_test_reads_them():
    failing, passing = _oracle_blocks()[1:3]
    assert "tf.reduce_mean" in failing and "except ReplicaMismatchError" in failing
    assert "compute_average_loss" in passing and "tf.reduce_mean" not in passing


@pytest.mark.tf
def test_failing_example_fails_and_passing_one_passes(tmp_path):
    failing, passing = _oracle_blocks()[1:3]
    old = re.search(r"        with tf.GradientTape\(\) as tape:\n.*?\n(?=        gradients)", failing, flags=re.S)
    assert old, "the failing example's tape block moved"
    fixed = failing.replace(old.group(0), passing)
    script = (
        "from mirrorguard.testkit import split_cpu\nsplit_cpu(2)\n"
        + failing
        + "\nprint('FIRST-DONE', flush=True)\n"
        + fixed.replace("print(error.report)", "raise")
        + "\nprint('SECOND-PASSED')\n"
    )
    path = tmp_path / "example.py"
    path.write_text(script)
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2")
    done = subprocess.run([sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    first, second = done.stdout.split("FIRST-DONE")
    assert "1 vs 2 replicas: MISMATCH" in first
    assert "cause (loss-averaged-per-replica): every update is ~2x the 1-replica update" in first
    assert "tf.nn.compute_average_loss(per_example_loss" in first
    assert "SECOND-PASSED" in second
