"""The red team's minimal reproductions of real public files the checker once got wrong.

Each case in tests/redteam/cases.py names the real file it came from; ``# expect:`` marks
the lines that must be reported, every other line must stay silent.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from mirrorguard.checker import check_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "redteam"))
from cases import CASES  # noqa: E402

_EXPECT = re.compile(r"#\s*expect:\s*(.*)$")


def expectations(source: str) -> set[tuple[int, str]]:
    found = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            found.update((number, code) for code in re.findall(r"MG\d{3}", match.group(1)))
    return found


@pytest.mark.parametrize("name", sorted(CASES))
def test_red_team_case(name):
    source = CASES[name]
    assert {(f.line, f.code) for f in check_source(source, f"{name}.py")} == expectations(source)
