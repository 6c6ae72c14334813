"""The corpus run for real (issue 17, part 3): the runtime's verdict against the static checker's.

Every corpus script that can run on small data in seconds runs on 2 logical CPU replicas
with the guards added to its fit() calls (harness.py, _runner.py). For each script the
runtime judged, the checker's MG101-MG105 findings and the runtime's verdict must agree,
or the file has a row in README.md's "Disagreements" table that says why. A row for a
file that now agrees, or that no longer runs, is stale and fails too, so the table stays
true as the corpus and the rules change.
"""

from __future__ import annotations

import pytest

from tests.corpus_runtime import harness

pytestmark = [pytest.mark.tf, pytest.mark.slow, pytest.mark.corpus_runtime]

MIN_JUDGED = 60  # issue 17: at least 60 files, buggy and clean


@pytest.fixture(scope="module")
def comparison():
    paths = harness.corpus_scripts()
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


def test_the_disagreement_table_has_no_stale_rows(comparison):
    stale = [f"{name}: {comparison.runs[name].verdict if name in comparison.runs else 'not in the corpus'}"
             for name in harness.known_disagreements() if name not in comparison.disagree]
    assert not stale, "these rows no longer describe a disagreement:\n" + "\n".join(stale)


def test_every_script_that_cannot_run_says_why(comparison):
    for name in comparison.cannot:
        run = comparison.runs[name]
        assert run.detail.strip(), f"{name} could not run and gave no reason"
