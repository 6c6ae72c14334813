"""docs/rules.md is generated from the rules and must not drift from them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_rules_page_is_up_to_date():
    spec = importlib.util.spec_from_file_location("generate_rules", ROOT / "docs" / "generate_rules.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == module.render(), (
        "run `python docs/generate_rules.py`"
    )
