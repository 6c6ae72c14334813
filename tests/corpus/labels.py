"""Read the hand-written expectations of the mirrorguard test corpus.

TensorFlow-free, standard library only.

* ``.py`` files: a trailing comment ``# expect: MG101`` (or ``# expect: MG101, MG102``)
  marks the line where each finding is expected.  Comments are found with
  :mod:`tokenize`, so ``# expect:`` inside a string literal does not count.
* notebooks: a sidecar ``NAME.expect.json`` next to ``NAME.ipynb`` holding a list of
  ``{"cell": N, "line": L, "code": "MG101"}``; ``cell`` is 1-based and counts code
  cells only, ``line`` is 1-based within that cell's source.
"""
from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

_EXPECT_RE = re.compile(r"#\s*expect\s*:\s*(.*)$")
_CODE_RE = re.compile(r"MG\d{3}")


def _codes_in_comment(comment: str) -> list[str]:
    m = _EXPECT_RE.search(comment)
    if not m:
        return []
    return _CODE_RE.findall(m.group(1))


def expected_findings(path) -> set[tuple[int, str]]:
    """Return ``{(line, code), ...}`` declared by ``# expect:`` comments in a .py file."""
    return expected_in_source(Path(path).read_bytes())


def expected_in_source(source: str | bytes) -> set[tuple[int, str]]:
    """``{(line, code), ...}`` declared by ``# expect:`` comments in a program's text."""
    data = source.encode("utf-8") if isinstance(source, str) else source
    found: set[tuple[int, str]] = set()
    for tok in tokenize.tokenize(io.BytesIO(data).readline):
        if tok.type == tokenize.COMMENT:
            for code in _codes_in_comment(tok.string):
                found.add((tok.start[0], code))
    return found


def notebook_sidecar(path) -> Path:
    """``foo.ipynb`` -> ``foo.expect.json`` (also accepts the sidecar path itself)."""
    p = Path(path)
    if p.name.endswith(".expect.json"):
        return p
    return p.with_name(p.stem + ".expect.json")


def expected_notebook_findings(path) -> set[tuple[int, int, str]]:
    """Return ``{(cell, line, code), ...}`` from the sidecar of a notebook."""
    entries = json.loads(notebook_sidecar(path).read_text(encoding="utf-8"))
    return {(int(e["cell"]), int(e["line"]), str(e["code"])) for e in entries}


def code_cells(path) -> list[str]:
    """Source of each code cell of a notebook, in order (index 0 is cell 1)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    cells = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            src = cell.get("source", "")
            cells.append("".join(src) if isinstance(src, list) else src)
    return cells


if __name__ == "__main__":  # pragma: no cover - manual inspection aid
    import sys

    for arg in sys.argv[1:]:
        if arg.endswith(".ipynb"):
            print(arg, sorted(expected_notebook_findings(arg)))
        else:
            print(arg, sorted(expected_findings(arg)))
