"""mirrorguard checks itself, as bugbear does: the reference training script,
its helpers and the examples are the pattern users copy, so they must be clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_reference_script_and_examples_have_no_findings():
    result = subprocess.run(
        [sys.executable, "-m", "mirrorguard.cli", "check",
         "mirrorguard", "flake8_mirrorguard", "examples", "benchmarks"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All checks passed" in result.stdout
