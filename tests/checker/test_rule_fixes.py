"""A rule's fix is tested with its cases (Fixit derives AUTOFIX from cases that
carry the expected replacement): every INVALID case of every rule goes through
the fixer; a case that carries ``fixed`` must come out exactly so, with its
findings gone; a rule that declares a fix carries the expected result on at
least one case, and a rule that declares none is never changed by the fixer."""

from __future__ import annotations

import pytest

from mirrorguard.checker import check_source
from mirrorguard.checker.core import Settings
from mirrorguard.checker.rules import ALL_RULES, Applicability, Fix
from mirrorguard.fixer.fix import fix_source
from tests.checker import cases as tables


def _invalid_cases():
    # The rule module's own cases and those of tests/checker/cases/mgNNN.py.
    for rule in ALL_RULES:
        for case_id, case in tables.cases(rule, "invalid"):
            yield pytest.param(rule, case, id=case_id)


@pytest.mark.parametrize("rule, case", list(_invalid_cases()))
def test_invalid_case_fixes_as_the_case_says(rule, case):
    settings = Settings(select=(rule.code,))
    unsafe = rule.fix.applicability is Applicability.UNSAFE
    result = fix_source(case.code, "case.py", settings, unsafe=unsafe)
    if case.fixed_code is not None:
        assert result.text == case.fixed_code
        assert [f.line for f in result.fixed] == list(case.lines)
        assert check_source(result.text, "case.py", settings) == []
        # Fixing the fixed text again changes nothing.
        assert fix_source(result.text, "case.py", settings, unsafe=unsafe).text == result.text
    elif rule.fix is Fix.NONE:
        assert result.text == case.code
        assert not result.fixed


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.fix is not Fix.NONE], ids=lambda r: r.code)
def test_a_fixable_rule_shows_its_fix_on_a_case(rule):
    assert any(case.fixed is not None for case in rule.invalid)


@pytest.mark.parametrize("rule", [r for r in ALL_RULES if r.fix.applicability is Applicability.UNSAFE],
                         ids=lambda r: r.code)
def test_an_unsafe_fix_is_not_applied_by_default(rule):
    case = next(c for c in rule.invalid if c.fixed is not None)
    result = fix_source(case.code, "case.py", Settings(select=(rule.code,)))
    assert result.text == case.code
    assert result.remaining and all("--unsafe-fixes" in why for _, why in result.remaining)


def test_a_case_carries_a_fix_only_for_a_rule_that_declares_one():
    for rule in ALL_RULES:
        if rule.fix is Fix.NONE:
            assert all(case.fixed is None for _, case in tables.cases(rule, "invalid")), rule.code
