"""Reading the scenario results in tests: parametrizing by set-up, and explaining a failure."""

from __future__ import annotations

import pytest


def _id(setup):
    flavour, replicas = setup
    return f"{flavour}-{'multiworker' if replicas == 'mw' else f'{replicas}rep'}"


def setups(*groups):
    return pytest.mark.parametrize("setup", [s for g in groups for s in g], ids=_id)


def observed(scenarios, name):
    """The scenario's result in each process that ran it (two workers under MWMS)."""
    runs = [scenarios["worker0"], scenarios["worker1"]] if "worker0" in scenarios else [scenarios]
    results = []
    for run in runs:
        assert name in run, f"scenario {name} did not run in {run['_setup']}"
        results.append((run["_setup"], run[name]))
    return results


def explain(result):
    return f"{result['error']}: {result['message'][:1500]}\n{result.get('traceback', '')}"
