"""The README's rule table lists exactly the registered rules, by code and name, in order."""

from __future__ import annotations

import re
from pathlib import Path

from mirrorguard.checker.rules import ALL_RULES

README = Path(__file__).resolve().parents[2] / "README.md"
ROW = re.compile(r"^\| (MG\d{3}) \| ([a-z0-9-]+) \|", re.MULTILINE)


def test_readme_rule_table_matches_the_registry():
    rows = ROW.findall(README.read_text(encoding="utf-8"))
    assert rows == [(rule.code, rule.name) for rule in ALL_RULES]
