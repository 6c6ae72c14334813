"""One five-epoch digits run per loop, shared by the tests that read it.

The default run (digits, 2 replicas, five epochs) is the slowest thing the reference script
does, so it runs once per loop with every reporting option on, and each test reads what it
needs: tests/train/test_train_runs.py the accuracy, the output and the summary;
tests/train/test_train_report.py the curves and the TensorBoard logs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest


class DigitsRun(NamedTuple):
    loop: str
    folder: Path
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture(scope="session", params=["fit", "custom"])
def digits_run(request, tmp_path_factory) -> DigitsRun:
    from tests.train.test_train_runs import run

    loop = request.param
    folder = tmp_path_factory.mktemp(f"digits-{loop}")
    args = ["--replicas", "2", "--loop", loop, "--output", "digits.keras", "--backup-dir", "backup",
            "--plot", "out/curves.png", "--tensorboard", "logs"]
    result = run([sys.executable, "-m", "mirrorguard.train", *args], folder)
    return DigitsRun(loop, folder, result.returncode, result.stdout, result.stderr)
