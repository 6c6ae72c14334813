"""List where the checker disagrees with the staged corpus labels.

Run from the repository root::

    PYTHONPATH=$PWD python tests/corpus/compare_with_checker.py [FOLDER]

Each file is checked on its own (`--no-cross-file`) with the default rules (MG405 is
off by default), as tests/checker/test_rule_cases.py does with `check_file`. Prints one line per file
whose findings differ from its labels, then the totals: expected findings
matched, expected findings missed, unexpected findings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from labels import expected_findings, expected_notebook_findings  # noqa: E402


def corpus_files(root: Path) -> list[Path]:
    scripts = sorted(root.glob("buggy/*.py")) + sorted(root.glob("clean/*.py"))
    return scripts + sorted(root.glob("notebooks/*.ipynb"))


def checker_findings(paths: list[Path]) -> dict[str, set[tuple]]:
    command = [sys.executable, "-m", "mirrorguard.cli", "check", "--no-cross-file",
               "--format", "json", *map(str, paths)]
    result = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
    found: dict[str, set[tuple]] = {}
    for item in json.loads(result.stdout):
        key = str(Path(item["path"]).resolve())
        where = (item["cell"], item["line"]) if item.get("cell") else (item["line"],)
        found.setdefault(key, set()).add((*where, item["code"]))
    return found


def main(root: Path) -> int:
    paths = corpus_files(root)
    found = checker_findings(paths)
    matched = missed = unexpected = 0
    for path in paths:
        expected = expected_notebook_findings(path) if path.suffix == ".ipynb" else expected_findings(path)
        got = found.get(str(path.resolve()), set())
        if got != expected:
            print(f"{path.relative_to(root)}: expected, not found {sorted(expected - got)}; "
                  f"found, not expected {sorted(got - expected)}")
        matched += len(expected & got)
        missed += len(expected - got)
        unexpected += len(got - expected)
    print(f"{len(paths)} files: {matched} expected findings matched, {missed} missed, {unexpected} unexpected")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE))
