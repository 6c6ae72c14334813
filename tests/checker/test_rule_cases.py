"""Every rule's own VALID and INVALID cases, as Fixit generates them."""

from __future__ import annotations

import pytest

from mirrorguard.checker import check_source
from mirrorguard.checker.core import Settings
from mirrorguard.checker.rules import ALL_RULES


def _cases(kind: str):
    for rule in ALL_RULES:
        for index, case in enumerate(getattr(rule, kind)):
            yield pytest.param(rule, case, id=f"{rule.code}-{kind}-{index}")


@pytest.mark.parametrize("rule, case", list(_cases("valid")))
def test_valid_case_has_no_finding_of_its_rule(rule, case):
    findings = check_source(case.code, "case.py", Settings(select=(rule.code,)))
    assert findings == []


@pytest.mark.parametrize("rule, case", list(_cases("invalid")))
def test_invalid_case_fires_on_the_expected_lines(rule, case):
    findings = check_source(case.code, "case.py", Settings(select=(rule.code,)))
    assert [f.line for f in findings] == list(case.lines)
    assert all(f.code == rule.code and f.name == rule.name for f in findings)


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.check is not None], ids=lambda r: r.code)
def test_every_rule_has_cases_both_ways(rule):
    assert rule.valid and rule.invalid


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_rule_docs_follow_ruffs_shape(rule):
    docs = rule.render_docs()
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"):
        assert heading in docs, heading
