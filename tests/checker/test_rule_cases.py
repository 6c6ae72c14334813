"""Every case of every rule, in one runner, grouped by rule: each test's id starts with the rule's
code, so ``-k MG201`` runs all of MG201's cases wherever they are written down.

For each registered rule, in this order:

* its module's own VALID and INVALID cases (mirrorguard/checker/rules/mgNNN_*.py), then those of
  tests/checker/cases/mgNNN.py: run with only the rule selected, as Fixit runs a rule's cases;
* the SHAPES of tests/checker/cases/mgNNN.py: small whole programs labelled with ``# expect:``,
  run with every default rule;
* the corpus files named for the rule (tests/corpus/buggy/mgNNN_*.py, clean/mgNNN_*.py,
  notebooks/mgNNN_*.ipynb), whole programs labelled the same way;
* the red team's reductions of real files (tests/redteam/cases*.py) whose docstring names the rule.

A labelled program must get exactly its labelled findings: each ``# expect:`` line reported and
nothing else. Corpus files and red-team cases compare sets of ``(line, code)`` (two metric objects made
on one line are one label, tests/corpus/README.md); a shape must report each label once.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from mirrorguard.checker import check_file, check_source
from mirrorguard.checker.core import Settings
from mirrorguard.checker.notebooks import check_notebook
from mirrorguard.checker.rules import ALL_RULES
from tests.checker import cases as tables

TESTS = Path(__file__).resolve().parents[1]
CORPUS = TESTS / "corpus"
REDTEAM = TESTS / "redteam"
sys.path.insert(0, str(CORPUS))
from labels import expected_findings, expected_in_source, expected_notebook_findings  # noqa: E402

CODES = {rule.code for rule in ALL_RULES}


def _code_of_name(path: Path) -> str | None:
    match = re.match(r"(mg\d{3})_", path.name)
    return match.group(1).upper() if match else None


def _case_params(kind: str):
    for rule in ALL_RULES:
        for case_id, case in tables.cases(rule, kind):
            yield pytest.param(rule, case, id=case_id)


@pytest.mark.parametrize("rule, case", list(_case_params("valid")))
def test_valid_case_has_no_finding_of_its_rule(rule, case):
    findings = check_source(case.code, "case.py", Settings(select=(rule.code,)))
    assert findings == []


@pytest.mark.parametrize("rule, case", list(_case_params("invalid")))
def test_invalid_case_fires_on_the_expected_lines(rule, case):
    findings = check_source(case.code, "case.py", Settings(select=(rule.code,)))
    assert [f.line for f in findings] == list(case.lines)
    assert all(f.code == rule.code and f.name == rule.name for f in findings)


def _shape_params():
    for rule in ALL_RULES:
        for name, source in tables.shapes(rule).items():
            yield pytest.param(name, source, id=f"{rule.code}-shape-{name}")


@pytest.mark.parametrize("name, source", list(_shape_params()))
def test_shape_gets_exactly_its_labelled_findings(name, source):
    found = [(f.line, f.code) for f in check_source(source, f"{name}.py")]
    # A list, not a set: a finding reported twice on one line fails too.
    assert sorted(found) == sorted(expected_in_source(source))


SCRIPTS = sorted((CORPUS / "buggy").glob("*.py")) + sorted((CORPUS / "clean").glob("*.py"))
NOTEBOOKS = sorted((CORPUS / "notebooks").glob("*.ipynb"))


def _corpus_params():
    by_code: dict[str, list[Path]] = {}
    for path in SCRIPTS + NOTEBOOKS:
        by_code.setdefault(_code_of_name(path) or "unnamed", []).append(path)
    for rule in ALL_RULES:
        for path in by_code.get(rule.code, []):
            yield pytest.param(path, id=f"{rule.code}-corpus-{path.parent.name}/{path.stem}")


@pytest.mark.parametrize("path", list(_corpus_params()))
def test_corpus_file_gets_exactly_its_labelled_findings(path):
    if path.suffix == ".ipynb":
        assert {(f.cell, f.line, f.code) for f in check_notebook(str(path))} == expected_notebook_findings(path)
    else:
        assert {(f.line, f.code) for f in check_file(str(path))} == expected_findings(path)


def test_every_corpus_file_is_named_by_a_registered_rule():
    unnamed = [p.relative_to(CORPUS).as_posix() for p in SCRIPTS + NOTEBOOKS if _code_of_name(p) not in CODES]
    assert unnamed == []


def test_corpus_has_both_kinds_of_file():
    buggy = [p for p in SCRIPTS if p.parent.name == "buggy"]
    clean = [p for p in SCRIPTS if p.parent.name == "clean"]
    assert len(buggy) >= 20 and len(clean) >= 20
    assert all(expected_findings(p) for p in buggy)
    assert not any(expected_findings(p) for p in clean)


def test_every_case_table_is_named_by_a_registered_rule():
    modules = {p.stem.upper() for p in Path(tables.__file__).parent.glob("mg*.py")}
    assert modules and modules <= CODES


def _red_team_rounds():
    """``{prefix: module}`` of tests/redteam/cases*.py, loaded by path: cases.py (no prefix),
    cases_roundN.py (prefix ``roundN_``)."""
    rounds = {}
    for path in sorted(REDTEAM.glob("cases*.py")):
        spec = importlib.util.spec_from_file_location(f"redteam_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        prefix = path.stem.removeprefix("cases").removeprefix("_")
        rounds[f"{prefix}_" if prefix else ""] = module
    return rounds


ROUNDS = _red_team_rounds()


def _red_team_params():
    params = []
    for prefix, module in ROUNDS.items():
        known_wrong = getattr(module, "KNOWN_WRONG", {})
        for name, source in module.CASES.items():
            # The case's docstring names the rule it is about ("False alarm, MG103. From ...").
            named = re.search(r"MG\d{3}", source)
            code = named.group(0) if named else "unnamed"
            params.append((code, f"{prefix}{name}", source, known_wrong.get(name)))
    order = {rule.code: index for index, rule in enumerate(ALL_RULES)}
    params.sort(key=lambda p: (order.get(p[0], len(order)), p[1]))
    return [pytest.param(name, source, known, id=f"{code}-redteam-{name}") for code, name, source, known in params]


@pytest.mark.parametrize("name, source, known_wrong", _red_team_params())
def test_red_team_case(name, source, known_wrong):
    found = {(f.line, f.code) for f in check_source(source, f"{name}.py")}
    if known_wrong is not None:
        # A known disagreement, kept visible: the checker still says this and the labels say otherwise.
        # When this fails the checker changed: if it now matches `# expect:`, drop the case from KNOWN_WRONG.
        assert expected_in_source(source) != known_wrong
        assert found == known_wrong, f"known-wrong output changed; labels expect {sorted(expected_in_source(source))}"
        return
    assert found == expected_in_source(source)


def test_every_red_team_case_names_a_registered_rule():
    unnamed = [name for module in ROUNDS.values() for name, source in module.CASES.items()
               if (re.search(r"MG\d{3}", source) or [None])[0] not in CODES]
    assert unnamed == []


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.check is not None], ids=lambda r: r.code)
def test_every_rule_has_cases_both_ways(rule):
    assert rule.valid and rule.invalid


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_docs_follow_ruffs_shape(rule):
    docs = rule.render_docs()
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"):
        assert heading in docs, heading
