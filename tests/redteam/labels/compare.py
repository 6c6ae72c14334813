"""Compare `mirrorguard check` on redteam/real/ with the hand labels in labels.py."""
import json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(__file__))
from labels import LABELS

REAL = os.environ.get("REDTEAM_REAL", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "redteam", "real"))
files = [os.path.join(REAL, f) for f in sorted(LABELS)]
missing = [f for f in files if not os.path.exists(f)]
assert not missing, missing
# CHECKER_ROOT: the checkout whose checker runs (default /work/main, the newest).
root = os.environ.get("CHECKER_ROOT", "/work/main")
out = subprocess.run(["/work/main/.venv/bin/mirrorguard", "check", "--no-cross-file", "--output-format", "json", *files],
                     cwd=root, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=root)).stdout
end = out.rfind("]")
found = json.loads(out[: end + 1])
by_file = {}
for f in found:
    by_file.setdefault(os.path.basename(f["path"]), []).append(f)

def hits(where, f, nb):
    if isinstance(where, list):  # alternative places for the same finding
        return any(hits(w, f, nb) for w in where)
    if nb:
        cell, line = where
        if f.get("cell") != cell:
            return False
    else:
        line = where
    lo, hi = line if isinstance(line, tuple) else (line, line)
    return lo <= f["line"] <= hi

tot = dict(files=0, expected=0, matched=0, missed=0, false=0)
rows = []
for name in sorted(LABELS):
    nb = name.endswith(".ipynb")
    got = list(by_file.get(name, []))
    tot["files"] += 1
    missed, matched = [], []
    for where, code, why in LABELS[name]:
        tot["expected"] += 1
        m = [f for f in got if f["code"] == code and hits(where, f, nb)]
        if m:
            matched.append((where, code)); tot["matched"] += 1
            for f in m: got.remove(f)
        else:
            missed.append((where, code, why)); tot["missed"] += 1
    tot["false"] += len(got)
    rows.append((name, LABELS[name], [((f.get("cell"), f["line"]) if nb else f["line"], f["code"]) for f in by_file.get(name, [])], missed, got))
    for w, c, why in missed:
        print(f"MISSED  {name} {w} {c}: {why}")
    for f in got:
        print(f"FALSE   {name} {(f.get('cell'), f['line']) if nb else f['line']} {f['code']}: {f['message']}")
print(tot)
json.dump([dict(file=r[0], expected=[(w, c) for w, c, _ in r[1]], checker=r[2]) for r in rows], open("/tmp/redteam_rows.json", "w"))
