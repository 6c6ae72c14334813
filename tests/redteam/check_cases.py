"""Show where the checker still disagrees with the red-team cases.

Run from the root of the checkout whose checker you want to test (`python -m`
imports `mirrorguard` from the current folder first)::

    PYTHONPATH=$PWD python tests/redteam/check_cases.py [cases_round2]

Each case in cases.py (or in the module named on the command line, such as
cases_round2) is written to a temporary folder and checked on its own
(`--select ALL --no-cross-file`, as tests/checker/test_rule_cases.py does). Prints
one line per case: `ok`, or what is missing and what is unexpected. The exit
status is the number of cases that disagree, so it can gate a CI job once the
lead adopts the cases into the rule tests.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "corpus"))
from labels import expected_findings  # noqa: E402

CASES = importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "cases").CASES


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for name, source in CASES.items():
            path = Path(folder) / f"{name}.py"
            path.write_text(source, encoding="utf-8")
            paths[name] = path
        command = [sys.executable, "-m", "mirrorguard.cli", "check", "--select", "ALL", "--no-cross-file",
                   "--output-format", "json", *map(str, paths.values())]
        result = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
        found: dict[str, set[tuple[int, str]]] = {}
        for item in json.loads(result.stdout[: result.stdout.rfind("]") + 1] or "[]"):
            found.setdefault(Path(item["path"]).stem, set()).add((item["line"], item["code"]))
        disagreeing = 0
        for name, path in paths.items():
            expected = expected_findings(path)
            got = found.get(name, set())
            if expected == got:
                print(f"ok        {name}")
                continue
            disagreeing += 1
            print(f"DISAGREES {name}: missing {sorted(expected - got)}, unexpected {sorted(got - expected)}")
    return disagreeing


if __name__ == "__main__":
    sys.exit(main())
