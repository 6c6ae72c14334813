"""`python -m mirrorguard.testkit.verify PATH::FUNCTION` (the `mirrorguard verify` command)."""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).with_name("oracle_programs") / "verify_examples.py"
REFERENCE = REPO / "mirrorguard" / "testkit" / "reference.py"
TIMEOUT = 900


def _verify(*args: str, flavour: str = "keras3") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2")
    env["TF_USE_LEGACY_KERAS"] = "1" if flavour == "tfkeras" else "0"
    return subprocess.run(
        [sys.executable, "-m", "mirrorguard.testkit.verify", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=REPO,
    )


# Usage errors answer before TensorFlow is imported: no tf mark needed.
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no_such_file.py::build"], "PATH::FUNCTION: no such file: no_such_file.py"),
        ([f"{EXAMPLES}"], "expected PATH::FUNCTION, like train.py::build"),
        ([f"{EXAMPLES}::build-it"], "expected PATH::FUNCTION"),
        ([f"{EXAMPLES}::build_right", "--data", "missing.py::f"], "--data: no such file: missing.py"),
    ],
)
def test_usage_errors_exit_2_with_a_message(args, message):
    done = _verify(*args)
    assert done.returncode == 2, done.stderr
    assert f"mirrorguard verify: error: {message}" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_option_values_are_argparse_errors():
    done = _verify(f"{EXAMPLES}::build_right", "--replicas", "1")
    assert done.returncode == 2
    assert "expected two or more distinct counts" in done.stderr


@pytest.mark.tf
@pytest.mark.slow
def test_verify_exit_codes_output_and_the_reference_loops():
    runs = {
        # The reference script's two loops (mirrorguard/train.py), strictly: their
        # BatchNormalization sees the same statistics through repeat_replica_shares.
        "fit": [f"{REFERENCE.relative_to(REPO)}::build_fit", "--strict"],
        "custom": [f"{REFERENCE.relative_to(REPO)}::build_custom_loop", "--strict"],
        "mean": [f"{EXAMPLES}::build_mean", "--format", "json"],
    }
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        done = dict(zip(runs, pool.map(lambda args: _verify(*args), runs.values())))

    for loop in ("fit", "custom"):
        assert done[loop].returncode == 0, done[loop].stdout + done[loop].stderr[-3000:]
        assert "1 vs 2 replicas: PASS" in done[loop].stdout
        assert f"replica oracle: {'fit' if loop == 'fit' else 'custom loop'}, 2 step(s) of global batch 16" in (
            done[loop].stdout
        )
    assert "accuracy" in done["custom"].stdout and "reported" in done["custom"].stdout

    mean = done["mean"]
    assert mean.returncode == 1, mean.stderr[-3000:]
    report = json.loads(mean.stdout)
    assert report["passed"] is False
    assert [d["cause"] for d in report["comparisons"][0]["diagnoses"]] == ["loss-averaged-per-replica"]
    kernel = next(v for v in report["comparisons"][0]["variables"] if v["name"].endswith("kernel"))
    assert kernel["step"] == 1 and kernel["max_rel"] == pytest.approx(1.0, rel=0.05)


@pytest.mark.tf
@pytest.mark.slow
def test_verify_in_process_right_crashing_and_uncompiled_builds(tmp_path):
    # One process runs several commands through main(): TensorFlow starts once.
    script = tmp_path / "several.py"
    script.write_text(
        "import sys\n"
        "from mirrorguard.testkit import verify\n"
        f"for name in ('build_right', 'build_crashes', 'build_uncompiled', 'NOT_A_FUNCTION'):\n"
        f"    code = verify.main([{str(EXAMPLES)!r} + '::' + name])\n"
        "    print('EXIT', name, code, flush=True)\n"
        "    print('EXIT', name, code, file=sys.stderr, flush=True)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2")
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr[-3000:]
    codes = dict(line.split()[1:] for line in done.stdout.splitlines() if line.startswith("EXIT"))
    assert codes == {"build_right": "0", "build_crashes": "2", "build_uncompiled": "2", "NOT_A_FUNCTION": "2"}
    assert "1 vs 2 replicas: PASS" in done.stdout
    errors = done.stderr
    assert "the training program failed before it could be compared: KeyError: 'no such layer'" in errors
    assert "returned a model that is not compiled" in errors
    assert "NOT_A_FUNCTION is not a function (it is int)" in errors
