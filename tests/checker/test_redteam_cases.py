"""The red team's minimal reproductions of real public files the checker once got wrong.

Each case in tests/redteam/cases*.py names the real file it came from; ``# expect:`` marks
the lines that must be reported, every other line must stay silent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mirrorguard.checker import check_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "redteam"))
from cases import CASES as ROUND_ONE  # noqa: E402
from cases_round2 import CASES as ROUND_TWO  # noqa: E402
from cases_round3 import CASES as ROUND_THREE  # noqa: E402
from cases_round4 import CASES as ROUND_FOUR, KNOWN_WRONG as ROUND_FOUR_KNOWN_WRONG  # noqa: E402
from cases_round5 import CASES as ROUND_FIVE, KNOWN_WRONG as ROUND_FIVE_KNOWN_WRONG  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpus"))
from labels import expected_in_source as expectations  # noqa: E402


CASES = {
    **ROUND_ONE,
    **{f"round2_{name}": source for name, source in ROUND_TWO.items()},
    **{f"round3_{name}": source for name, source in ROUND_THREE.items()},
    **{f"round4_{name}": source for name, source in ROUND_FOUR.items()},
    **{f"round5_{name}": source for name, source in ROUND_FIVE.items()},
}
# Cases the checker still gets wrong: their test asserts today's output (see cases_round4.py, cases_round5.py).
KNOWN_WRONG = {
    **{f"round4_{name}": found for name, found in ROUND_FOUR_KNOWN_WRONG.items()},
    **{f"round5_{name}": found for name, found in ROUND_FIVE_KNOWN_WRONG.items()},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_red_team_case(name):
    source = CASES[name]
    found = {(f.line, f.code) for f in check_source(source, f"{name}.py")}
    if name in KNOWN_WRONG:
        # A known disagreement, kept visible: the checker still says this and the labels say otherwise.
        # When this fails the checker changed: if it now matches `# expect:`, drop the case from KNOWN_WRONG.
        assert expectations(source) != KNOWN_WRONG[name]
        assert found == KNOWN_WRONG[name], f"known-wrong output changed; labels expect {sorted(expectations(source))}"
        return
    assert found == expectations(source)
