"""Which findings come from value flow and which still from a name (issue 17).

Runs the checker in this process on the hand-labelled corpus (tests/corpus: buggy, clean,
notebooks) and on red-team round 4's committed real files, once as it is and once with each
name-based path switched off, and prints, per rule, how many findings (and how many labelled
ones) each ablation takes away: a finding that disappears when a name stops counting came
from that name. Run from the repository root:

    PYTHONPATH=$PWD python tests/redteam/name_ablation.py [--json]

The ablations (each a user-chosen identifier the checker reads; API names such as
`num_replicas_in_sync` or Hugging Face's `per_device_train_batch_size` are listed apart):

- input-context-param: a function taking a parameter named `input_context`/`input_ctx`/
  `ctx_input` runs per replica (distribute.PER_REPLICA_PARAMS);
- strategy-by-name: an identifier that says strategy (`strategy`, `dist_strat`,
  `self.strategy`, a parameter `dist` that runs `.run`, a factory named `init_tpu()`, an
  `if args.multi_gpu:` branch);
- other-scope-names: `.scope()` on a receiver whose name says layout/random/graph... is not a
  strategy scope (a name that silences);
- hf-per-device-field (API name): `args.per_device_train_batch_size` is per replica.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NEVER = re.compile(r"(?!x)x")
ABLATIONS = ("none", "input-context-param", "strategy-by-name", "other-scope-names", "hf-per-device-field")


def _ablate(name: str) -> None:
    from mirrorguard.checker import names
    from mirrorguard.checker.semantic import distribute, syntax, values

    if name == "input-context-param":
        distribute.PER_REPLICA_PARAMS = frozenset()
    elif name == "strategy-by-name":
        names.says_strategy = lambda identifier: False
        names.says_strategy_scope = lambda identifier: False
        distribute._NAMES_A_STRATEGY = NEVER
        distribute._NAMES_A_STRATEGY_FACTORY = NEVER
        syntax._DISTRIBUTION_WORDS = NEVER
    elif name == "other-scope-names":
        distribute._OTHER_SCOPES = NEVER
    elif name == "hf-per-device-field":
        values._PER_DEVICE_FIELDS = frozenset()


def _files() -> list[Path]:
    corpus = ROOT / "tests" / "corpus"
    files = sorted(corpus.glob("buggy/*.py")) + sorted(corpus.glob("clean/*.py")) + sorted(corpus.glob("notebooks/*.ipynb"))
    return files + sorted((ROOT / "tests" / "redteam" / "labels_round4" / "files").iterdir())


def run_one(name: str) -> list[tuple[str, object, int, str]]:
    """(file, cell, line, code) of every finding with one ablation applied."""
    _ablate(name)
    from mirrorguard.checker.core import DEFAULT_SETTINGS
    from mirrorguard.checker.runner import check_path

    found = []
    for path in _files():
        for finding in check_path(str(path), DEFAULT_SETTINGS).findings:
            found.append((str(path.relative_to(ROOT)), finding.cell, finding.line, finding.code))
    return found


def hits(where, finding: dict, notebook: bool) -> bool:
    """compare_real.py's reading of a label: a line, a (first, last) range, or alternatives."""
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


def _labelled(found: set) -> set:
    """The findings that match a hand label (corpus `# expect:` / sidecar, round 4's labels.py)."""
    sys.path.insert(0, str(ROOT / "tests" / "corpus"))
    import labels as corpus_labels

    import importlib.util

    spec = importlib.util.spec_from_file_location("round4_labels", ROOT / "tests/redteam/labels_round4/labels.py")
    round4 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(round4)  # type: ignore[union-attr]

    matched = set()
    for item in found:
        file, cell, line, code = item
        path = ROOT / file
        if "labels_round4" in file:
            notebook = file.endswith(".ipynb")
            finding = {"cell": cell, "line": line}
            if any(c == code and hits(where, finding, notebook) for where, c, _ in round4.LABELS.get(path.name, [])):
                matched.add(item)
        elif file.endswith(".ipynb"):
            if (cell, line, code) in corpus_labels.expected_notebook_findings(path):
                matched.add(item)
        elif (line, code) in corpus_labels.expected_findings(path):
            matched.add(item)
    return matched


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(run_one(sys.argv[2])))
        return 0
    results = {}
    for name in ABLATIONS:
        out = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True, check=True)
        results[name] = {tuple(x) for x in json.loads(out.stdout)}
    base = results["none"]
    labelled = _labelled(base)
    codes = sorted({c for *_, c in base})
    rows = []
    for code in codes:
        mine = {f for f in base if f[3] == code}
        row = {"code": code, "findings": len(mine), "labelled": len(mine & labelled)}
        for name in ABLATIONS[1:]:
            lost = mine - results[name]
            gained = {f for f in results[name] if f[3] == code} - mine
            row[name] = (len(lost), len(lost & labelled), len(gained))
        rows.append(row)
    if "--json" in sys.argv:
        print(json.dumps(rows, indent=1))
        return 0
    head = "| rule | findings (labelled) | " + " | ".join(f"{n}: lost (labelled) / new" for n in ABLATIONS[1:]) + " |"
    print(head)
    print("|" + "---|" * (2 + len(ABLATIONS) - 1))
    for row in rows:
        cells = [f"{row[n][0]} ({row[n][1]}) / {row[n][2]}" for n in ABLATIONS[1:]]
        print(f"| {row['code']} | {row['findings']} ({row['labelled']}) | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
