"""Runs the scenario processes of tests/runtime/_scenarios.py, two at a time, once per session.

Only the set-ups that the selected tests read are started. While working on a few
scenarios, MIRRORGUARD_SCENARIOS=am_,ev_partial (name prefixes) runs only those in
each process; tests that read other scenarios then fail with "did not run".
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mirrorguard.testkit.workers import free_ports

RUNNER = Path(__file__).with_name("_scenarios.py")
REPO = Path(__file__).resolve().parents[2]
PREFIX = "MG-RESULTS "
TIMEOUT = 900  # a guard against hangs: a loaded 2-core machine needs minutes per set-up

FLAVOURS = ("keras3", "tfkeras")
# (flavour, replicas) with replicas an int for MirroredStrategy on logical CPUs,
# or "mw" for MultiWorkerMirroredStrategy with two worker processes. 2 and 3 replicas: an even
# and an odd count, each with a batch that leaves a replica empty; 4 replicas proved nothing 3
# does not, and two more TensorFlow processes cost CI over a minute on 2 cores.
SETUPS = [(f, n) for f in FLAVOURS for n in (1, 2, 3, "mw")]


def _env(flavour: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2", PYTHONHASHSEED="0")
    env.pop("TF_CONFIG", None)
    env["TF_USE_LEGACY_KERAS"] = "1" if flavour == "tfkeras" else "0"
    return env


def _only() -> list[str]:
    only = os.environ.get("MIRRORGUARD_SCENARIOS", "")
    return ["--only", only] if only else []


def _parse(output: str, what: str) -> dict:
    for line in output.splitlines():
        if line.startswith(PREFIX):
            return json.loads(line[len(PREFIX) :])
    raise AssertionError(f"{what} printed no results:\n{output[-4000:]}")


def _run(setup) -> dict:
    flavour, replicas = setup
    if replicas != "mw":
        command = [sys.executable, str(RUNNER), "--replicas", str(replicas), *_only()]
        done = subprocess.run(command, env=_env(flavour), capture_output=True, text=True, timeout=TIMEOUT)
        return _parse(done.stdout + done.stderr[-4000:], f"{setup}")
    ports = ",".join(str(p) for p in free_ports(2))
    workers = [
        subprocess.Popen(
            [sys.executable, str(RUNNER), "--worker", str(i), "--ports", ports, *_only()],
            env=_env(flavour),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outputs = []
    for worker in workers:
        try:
            out, err = worker.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            for other in workers:
                other.kill()
            raise
        outputs.append(out + err[-4000:])
    results = [_parse(out, f"{setup} worker {i}") for i, out in enumerate(outputs)]
    return {"worker0": results[0], "worker1": results[1]}


def _selected_setups(session) -> list:
    """The set-ups that the selected tests read, in SETUPS order: a `-k 2rep` run (the version
    matrix) starts two processes, not ten."""
    wanted = set()
    for item in session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "scenarios" in getattr(item, "fixturenames", ()) and "setup" in params:
            wanted.add(params["setup"])
    return [setup for setup in SETUPS if setup in wanted]


@pytest.fixture(scope="session")
def _scenario_runs(request):
    """Futures of the selected set-ups' results, started together on first use."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    futures = {setup: pool.submit(_run, setup) for setup in _selected_setups(request.session)}
    yield futures
    pool.shutdown(wait=False, cancel_futures=True)


@pytest.fixture
def scenarios(_scenario_runs, setup):
    """The results of the set-up this test is parametrized with (both workers' under MWMS)."""
    return _scenario_runs[setup].result()
