"""Every rule's cases that live with the tests, one module per rule: ``tests/checker/cases/mgNNN.py``.

A module may hold

* ``VALID`` / ``INVALID``: lists of :class:`~mirrorguard.checker.rules.Case`, the same form as the
  rule module's own ``valid``/``invalid`` cases, run the same way (only the rule selected; an invalid
  case fires exactly on its ``lines``; tests/checker/test_rule_fixes.py runs the invalid ones through
  the fixer too);
* ``SHAPES``: ``{name: source}`` of small whole programs in a shape real code takes, with
  ``# expect: MGnnn`` on each line that must be reported (by any rule), run with every default rule:
  nothing else may be reported. A shape that several rules meet goes to the rule of its main finding
  (for a shape with no finding: the rule it must not false-alarm).

tests/checker/test_rule_cases.py is the one runner: for each rule it runs the rule module's cases,
this package's module for the rule, the corpus files named for the rule (tests/corpus/*/mgNNN_*) and
the red team's reductions whose docstring names the rule (tests/redteam/cases*.py), so that
``pytest tests/checker/test_rule_cases.py -k MG201`` runs every case of MG201.
"""

from __future__ import annotations

import importlib
import importlib.util
import textwrap
from types import ModuleType

from mirrorguard.checker.rules import Case, Rule


def table(rule: Rule) -> ModuleType | None:
    """The module of ``rule``'s cases in this package, or None when the rule has none here."""
    name = f"{__name__}.{rule.code.lower()}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def cases(rule: Rule, kind: str) -> list[tuple[str, Case]]:
    """``(id, case)`` of every ``kind`` ("valid" or "invalid") case of ``rule``: the rule module's own,
    then this package's (``VALID``/``INVALID``)."""
    own = [(f"{rule.code}-{kind}-{index}", case) for index, case in enumerate(getattr(rule, kind))]
    here = getattr(table(rule), kind.upper(), ())
    return own + [(f"{rule.code}-tests-{kind}-{index}", case) for index, case in enumerate(here)]


def shapes(rule: Rule) -> dict[str, str]:
    """``{name: source}``, dedented, of the rule's SHAPES."""
    module = table(rule)
    return {name: textwrap.dedent(source).lstrip("\n") for name, source in getattr(module, "SHAPES", {}).items()}
