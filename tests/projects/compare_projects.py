"""Compare `# expect:` labels of each project with `mirrorguard check` run on the project folder.

Usage (from any folder): python compare_projects.py [--cwd-project|--cwd-here] [extra checker args]
--cwd-project (default) runs the checker inside each project folder on `.`, as a pre-commit user does;
--cwd-here runs it from the current folder on the project's path.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "corpus"))
from labels import expected_findings, expected_notebook_findings  # noqa: E402

MG = os.environ.get("MIRRORGUARD", str(Path(sys.executable).with_name("mirrorguard")))


def labels(project: Path) -> set[tuple]:
    out = set()
    for path in sorted(project.rglob("*.py")):
        for line, code in expected_findings(path):
            out.add((str(path.relative_to(project)), line, code))
    for path in sorted(project.rglob("*.ipynb")):
        for cell, line, code in expected_notebook_findings(path):
            out.add((str(path.relative_to(project)), f"cell {cell}:{line}", code))
    return out


def found(project: Path, cwd_project: bool, extra: list[str]) -> tuple[set[tuple], str]:
    target = "." if cwd_project else str(project)
    cwd = project if cwd_project else Path.cwd()
    result = subprocess.run([MG, "check", "--select", "ALL", "--output-format", "json", *extra, target],
                            capture_output=True, text=True, cwd=cwd)
    out = set()
    for item in json.loads(result.stdout or "[]"):
        path = (cwd / item["path"]).resolve().relative_to(project.resolve())
        line = f"cell {item['cell']}:{item['line']}" if item.get("cell") else item["line"]
        out.add((str(path), line, item["code"]))
    return out, result.stderr.strip()


def main() -> None:
    args = sys.argv[1:]
    cwd_project = "--cwd-here" not in args
    extra = [a for a in args if a not in ("--cwd-here", "--cwd-project")]
    totals = [0, 0, 0]
    for project in sorted(p for p in HERE.iterdir() if p.is_dir()):
        want = labels(project)
        got, err = found(project, cwd_project, extra)
        matched, missed, extra_found = want & got, want - got, got - want
        totals[0] += len(matched)
        totals[1] += len(missed)
        totals[2] += len(extra_found)
        status = "ok" if not missed and not extra_found else "DIFF"
        print(f"{project.name}: {status} matched={len(matched)} missed={sorted(missed, key=str)} "
              f"unexpected={sorted(extra_found, key=str)}")
        if err and "Found" not in err and "All checks" not in err:
            print("   stderr:", err[:500])
    print(f"TOTAL matched={totals[0]} missed={totals[1]} unexpected={totals[2]}")


if __name__ == "__main__":
    main()
