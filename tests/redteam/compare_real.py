"""Compare `mirrorguard check` on the real files with the hand labels in labels.py.

One script for every round: the real files of rounds 1-3 are not in the repository (see README.md,
README_round2.md, README_round3.md); put a round's files in `redteam/real`, `redteam/real2` or
`redteam/real3` at the repository root, or point REDTEAM_REAL at them. Round 4 keeps its labelled
copies in labels_round4/files/, found there by default. Run::

    python tests/redteam/compare_real.py labels_round3

CROSS_FILE=1 drops `--no-cross-file` (each repository's files are then checked together).
A finding at a place listed in DEBATABLE counts neither as matched nor as a false alarm.

CHECKER_ROOT picks the checkout whose checker runs (default: the current
folder); it is put first on PYTHONPATH. Prints one line per missed finding and
per false alarm, then the totals, and writes the per-file rows as JSON to
REDTEAM_ROWS (default /tmp/redteam_rows3.json) for the README table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROUND = sys.argv[1] if len(sys.argv) > 1 else "labels"  # labels, labels_round2, labels_round3 or labels_round4
_REAL_FOLDER = {"labels": "real", "labels_round2": "real2", "labels_round3": "real3"}
sys.path.insert(0, str(HERE / ROUND))
import labels as labels_module  # noqa: E402

LABELS, DEBATABLE = labels_module.LABELS, getattr(labels_module, "DEBATABLE", {})

# Round 4 keeps its labelled copies in the repository, next to its labels.
_DEFAULT_REAL = HERE / ROUND / "files"
if not _DEFAULT_REAL.is_dir():
    _DEFAULT_REAL = HERE.parents[1] / "redteam" / _REAL_FOLDER[ROUND]
REAL = Path(os.environ.get("REDTEAM_REAL", _DEFAULT_REAL))
ROOT = os.environ.get("CHECKER_ROOT", os.getcwd())


def checker_findings(files: list[Path]) -> dict[str, list[dict]]:
    flags = [] if os.environ.get("CROSS_FILE") else ["--no-cross-file"]
    command = [sys.executable, "-m", "mirrorguard.cli", "check", *flags, "--output-format", "json", *map(str, files)]
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env).stdout
    by_file: dict[str, list[dict]] = {}
    for item in json.loads(out[: out.rfind("]") + 1] or "[]"):
        by_file.setdefault(Path(item["path"]).name, []).append(item)
    return by_file


def hits(where, finding: dict, notebook: bool) -> bool:
    """Whether `finding` is at `where`: a line, a (first, last) range, or a list of alternatives."""
    if isinstance(where, list):
        return any(hits(each, finding, notebook) for each in where)
    if notebook:
        cell, line = where
        if finding.get("cell") != cell:
            return False
    else:
        line = where
    first, last = line if isinstance(line, tuple) else (line, line)
    return first <= finding["line"] <= last


def place(finding: dict, notebook: bool):
    return (finding.get("cell"), finding["line"]) if notebook else finding["line"]


def main() -> int:
    files = [REAL / name for name in sorted(LABELS)]
    missing = [str(path) for path in files if not path.exists()]
    if missing:
        print("missing real files:", *missing, sep="\n  ")
        return 2
    found = checker_findings(files)
    totals = dict(files=0, expected=0, matched=0, missed=0, false=0, debatable=0)
    rows = []
    for name in sorted(LABELS):
        notebook = name.endswith(".ipynb")
        left = list(found.get(name, []))
        totals["files"] += 1
        for where, code, why in LABELS[name]:
            totals["expected"] += 1
            matched = [f for f in left if f["code"] == code and hits(where, f, notebook)]
            if matched:
                totals["matched"] += 1
                for finding in matched:
                    left.remove(finding)
            else:
                totals["missed"] += 1
                print(f"MISSED  {name} {where} {code}: {why}")
        for where, code, why in DEBATABLE.get(name, []):
            for finding in [f for f in left if f["code"] == code and hits(where, f, notebook)]:
                left.remove(finding)
                totals["debatable"] += 1
                print(f"DEBATED {name} {where} {code}: {why}")
        totals["false"] += len(left)
        for finding in left:
            print(f"FALSE   {name} {place(finding, notebook)} {finding['code']}: {finding['message']}")
        rows.append(dict(file=name, expected=[(w, c) for w, c, _ in LABELS[name]],
                         checker=[(place(f, notebook), f["code"]) for f in found.get(name, [])]))
    print(totals)
    Path(os.environ.get("REDTEAM_ROWS", f"/tmp/redteam_rows_{ROUND}.json")).write_text(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
