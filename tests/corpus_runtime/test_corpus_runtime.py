"""The corpus run for real (issue 17, parts 3 and 4): the runtime's verdict against the static
checker's, and every fixed script run again.

Every corpus script that can run on small data in seconds runs on 2 logical CPU replicas
with the guards added to its fit() calls (harness.py, _runner.py). For each script the
runtime judged, the checker's MG101-MG105 findings and the runtime's verdict must agree,
or the file has a row in README.md's "Disagreements" table that says why. Each judged
script that `mirrorguard fix` changes runs again as fixed, in the same process: it must
run to its end on 2 replicas with its fit()s guarded (mirrored variables), or the file has
a row in the "Fix runs" table. A row for a file that no longer needs one is stale and
fails too, so the tables stay true as the corpus, the rules and the fixer change.
"""

from __future__ import annotations

import sys

import pytest

from tests.corpus_runtime import harness

pytestmark = [pytest.mark.tf, pytest.mark.slow, pytest.mark.corpus_runtime]

FIXED_BEFORE_MIN = 20  # scope mistakes the runtime saw that the fixer rewrites (more than 30 on this corpus)

MIN_JUDGED = 60  # issue 17: at least 60 files, buggy and clean


@pytest.fixture(scope="module")
def comparison():
    paths = harness.scripts_for_ci()
    runs = harness.run_corpus(paths)
    result = harness.compare(runs, paths)
    print("\n" + harness.table(result) + "\n" + harness.summary(result))
    return result


def test_enough_of_the_corpus_runs_for_real(comparison):
    judged = comparison.judged
    assert len(judged) >= MIN_JUDGED, harness.summary(comparison)
    assert any(n.startswith("buggy/") for n in judged) and any(n.startswith("clean/") for n in judged)
    # Both sides of the comparison occur: the runtime catches mistakes and passes clean scripts.
    verdicts = {comparison.runs[n].verdict for n in judged}
    assert "clean" in verdicts and verdicts & harness.RUNTIME_SCOPE, verdicts


def test_static_and_runtime_verdicts_agree_or_the_table_says_why(comparison):
    known = harness.known_disagreements()
    unexplained = [
        f"{name}: static {sorted(comparison.static[name]) or 'clean'}, runtime {comparison.runs[name].verdict} "
        f"({comparison.runs[name].flavour}: {comparison.runs[name].detail})"
        for name in comparison.disagree
        if name not in known
    ]
    assert not unexplained, "add a row to tests/corpus_runtime/README.md or fix the rule:\n" + "\n".join(unexplained)


def _unjudged_here(run, name=None) -> bool:
    # Out of time, or no data or network here, or not run at all (the last whole-corpus run could
    # not judge it: see harness.scripts_for_ci): this run says nothing either way about the row.
    if run is None:
        return name is not None and (harness.CORPUS / name).exists()
    # A run that could not judge the script (for any reason: CI's loaded runners have made a script
    # that is judged here fail elsewhere) says nothing about the row; only a judged run can make
    # a row stale, by agreeing.
    return run.verdict == "cannot"


def test_the_disagreement_table_has_no_stale_rows(comparison):
    stale = [f"{name}: {comparison.runs[name].verdict if name in comparison.runs else 'not in the corpus'}"
             for name in harness.known_disagreements()
             if name not in comparison.disagree and not _unjudged_here(comparison.runs.get(name), name)]
    assert not stale, "these rows no longer describe a disagreement:\n" + "\n".join(stale)


def test_every_script_that_cannot_run_says_why(comparison):
    for name in comparison.cannot:
        run = comparison.runs[name]
        assert run.detail.strip(), f"{name} could not run and gave no reason"


def test_every_fixed_script_that_ran_before_trains_mirrored_after(comparison):
    """Issue 17, part 4: a fix never breaks a program; a scope mistake's fix makes it train on 2 replicas."""
    known = harness.known_fix_failures()
    broken = [
        f"{name}: before {comparison.runs[name].verdict}, after fix {comparison.runs[name].after_fix.verdict} "
        f"({comparison.runs[name].after_fix.fits} guarded fit(s); {comparison.runs[name].after_fix.detail})"
        for name in comparison.fix_broken
        if name not in known
    ]
    assert not broken, "add a row to the Fix runs table of tests/corpus_runtime/README.md or fix the fixer:\n" + (
        "\n".join(broken))
    # The check has something to check: scope mistakes the runtime caught, fixed and run clean.
    caught = [n for n in comparison.fix_clean if comparison.runs[n].verdict in harness.RUNTIME_SCOPE]
    assert len(caught) >= FIXED_BEFORE_MIN, harness.summary(comparison)


def test_every_judged_scope_mistake_the_fixer_changes_was_run_again(comparison):
    # A judged script with a fixed copy that did not run (its runner skipped it) would pass unseen.
    for name in comparison.judged:
        run = comparison.runs[name]
        if run.verdict in harness.RUNTIME_SCOPE and name in comparison.changed_by_fix:
            assert run.after_fix is not None, f"{name}: its fixed copy was not run"


def test_the_fix_runs_table_has_no_stale_rows(comparison):
    stale = [name for name in harness.known_fix_failures()
             if name not in comparison.fix_broken and not _unjudged_here(comparison.runs.get(name), name)
             and not (name in comparison.runs and _unjudged_here(comparison.runs[name].after_fix))]
    assert not stale, "these rows no longer describe a fixed script that fails:\n" + "\n".join(stale)


def test_each_script_runs_as_in_a_fresh_process_and_a_rewrapped_timeout_reads_as_one(tmp_path):
    """One runner process, three scripts. CI, stop 23: the timer's signal landed inside
    TensorFlow's C++ code and pybind11 replaced the ScriptTimeout with a RuntimeError, read as a
    broken fix instead of no time. And a script's TF_CONFIG stayed for the next script, whose
    MultiWorkerMirroredStrategy waited for the two workers it named until the process was killed."""
    spins = tmp_path / "spins.py"
    spins.write_text("try:\n    while True:\n        pass\n"
                     "except BaseException as error:\n    raise RuntimeError('MISMATCH ... REPLACED BY') from error\n",
                     encoding="utf-8")
    sets = tmp_path / "sets.py"
    sets.write_text("import os\nos.environ['TF_CONFIG'] = '{\"cluster\": {}}'\n", encoding="utf-8")
    reads = tmp_path / "reads.py"
    reads.write_text("import os\nassert 'TF_CONFIG' not in os.environ, os.environ['TF_CONFIG']\n", encoding="utf-8")
    outcomes = harness._run_group([str(spins), str(sets), str(reads)], "keras3", 2, 1.0)
    timed_out = outcomes[str(spins.resolve())]
    assert timed_out["exception"] == "Timeout", timed_out
    verdict, detail = harness.classify(timed_out)
    assert verdict == "cannot" and harness.machine_reason(detail)
    assert outcomes[str(sets.resolve())]["exception"] is None
    assert outcomes[str(reads.resolve())]["exception"] is None, outcomes[str(reads.resolve())]["message"]


def test_a_script_that_makes_a_multi_worker_strategy_ends_its_process(tmp_path):
    """A MultiWorkerMirroredStrategy, even a single-worker one, sets up the collective runtime
    for the whole process; later scripts' MirroredStrategy all-reduces then stopped with
    "Shape mismatch in the collective instance 100". The runner ends the process after it, and
    the harness runs the rest in a fresh one."""
    mwms = tmp_path / "mwms.py"
    mwms.write_text("import tensorflow as tf\ntf.distribute.MultiWorkerMirroredStrategy()\n", encoding="utf-8")
    after = tmp_path / "after.py"
    after.write_text("x = 1\n", encoding="utf-8")
    command = [sys.executable, str(harness.RUNNER), "--replicas", "2", "--timeout", "12", str(mwms), str(after)]
    protocol, _ = harness._read_process(command, "keras3")
    assert [line.split(" ")[0] for line in protocol] == ["MG-CORPUS-START", "MG-CORPUS", "MG-CORPUS-STOPPED"]
    outcomes = harness._run_group([str(mwms), str(after)], "keras3", 2, 12.0)
    assert outcomes[str(after.resolve())]["exception"] is None
