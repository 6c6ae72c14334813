"""Jupyter notebooks: code cells in order, as one program, findings per cell.

A notebook runs its code cells top to bottom in one namespace, so a strategy
created in cell 2 and a model built in cell 5 are one program. The cells are
joined into one module, IPython syntax that is not Python (``%magic``,
``!shell``, ``x = !cmd``, ``obj?``) is replaced *line for line* so every other
line keeps its number and column, the module goes through the ordinary
:func:`~mirrorguard.checker.core.check_source`, and each finding's line is
mapped back to its code cell (1-based, counting code cells only, as Jupyter's
``In [n]`` numbering of a fresh top-to-bottom run does).

Notebooks are read with :mod:`json`; nbformat is not needed.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, replace

from mirrorguard.checker import source as sources
from mirrorguard.checker.core import (
    DEFAULT_SETTINGS,
    Imports,
    RuleFailed,
    Settings,
    check_source_and_imports,
    unreadable_findings,
)
from mirrorguard.checker.findings import Finding

NOTEBOOK_SUFFIX = ".ipynb"

# Cell magics whose body is still Python run in the notebook's namespace: the
# ``%%`` line is blanked and the body analysed. Every other cell magic
# (``%%bash``, ``%%writefile``, ``%%html``, ``%%sql`` ...) has a body that is
# not Python run here, and the whole cell is skipped.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "memit", "mprun"})

# ``%time model = build()`` runs its Python in the notebook's namespace.
_PYTHON_LINE_MAGIC = re.compile(r"^(?P<indent>[ \t]*)%(?:time|timeit|prun)[ \t]+(?=[^-\s])")
_MAGIC_START = re.compile(r"^(?P<indent>[ \t]*)(?:%|!|\?)")
# ``files = !ls`` / ``out = %sx ls`` (also ``a, b = !cmd``).
_MAGIC_ASSIGNMENT = re.compile(r"^(?P<indent>[ \t]*)[\w.,\s\[\]()*]+?\s*=\s*[%!]")
# ``obj?`` / ``obj??`` / ``obj.attr?`` help requests (not inside a comment).
_HELP_SUFFIX = re.compile(r"^(?P<indent>[ \t]*)[\w.*\[\]()]+\?{1,2}\s*$")


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based, counting code cells
    first_line: int  # 1-based line of the cell's first line in the joined module
    lines: int
    source: str
    shifts: dict[int, int]  # 0-based line in the cell -> columns its text moved left


class BrokenNotebook(Exception):
    """The file is not a notebook this checker can read; the message says why."""


def code_cells(data: bytes) -> list[str] | None:
    """The code cells' sources, in order; None for a notebook in another language.

    Raises BrokenNotebook when the bytes are not an nbformat 3 or 4 notebook.
    """
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise BrokenNotebook(f"not a notebook: cannot decode as UTF-8 ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise BrokenNotebook(
            f"not a notebook: invalid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})"
        ) from None
    except RecursionError:
        raise BrokenNotebook("not a notebook: JSON nested too deeply") from None
    if not isinstance(notebook, dict):
        raise BrokenNotebook("not a notebook: the top level is not a JSON object")
    if not _python_kernel(notebook):
        return None
    if "cells" in notebook:  # nbformat 4
        cells, key = notebook["cells"], "source"
    elif isinstance(notebook.get("worksheets"), list):  # nbformat 3
        cells, key = [c for ws in notebook["worksheets"] if isinstance(ws, dict)
                      for c in (ws.get("cells") or [])], "input"
    else:
        raise BrokenNotebook("not a notebook: no `cells` list")
    if not isinstance(cells, list):
        raise BrokenNotebook("not a notebook: `cells` is not a list")
    sources_: list[str] = []
    for index, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or "cell_type" not in cell:
            raise BrokenNotebook(f"not a notebook: cell {index} has no `cell_type`")
        if cell["cell_type"] != "code":
            continue
        text = cell.get(key, "")
        if isinstance(text, list) and all(isinstance(part, str) for part in text):
            text = "".join(text)
        if not isinstance(text, str):
            raise BrokenNotebook(
                f"not a notebook: the source of code cell {len(sources_) + 1} is neither a string "
                "nor a list of strings"
            )
        sources_.append(text)
    return sources_


def _python_kernel(notebook: dict) -> bool:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return True
    for section, key in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(section)
        if isinstance(value, dict) and isinstance(value.get(key), str):
            return value[key].lower() in ("python", "python3", "ipython", "ipython3")
    return True


def python_lines(cell: str) -> list[str]:
    """The cell's lines with IPython-only syntax neutralised, one for one."""
    return python_lines_and_shifts(cell)[0]


def python_lines_and_shifts(cell: str) -> tuple[list[str], dict[int, int]]:
    """The cell's lines with IPython-only syntax neutralised, one for one.

    A line magic or shell escape becomes ``pass`` at its indentation (so a magic
    alone in an ``if`` body still leaves valid Python); its backslash
    continuation lines become blank. A non-Python cell magic blanks the cell.
    ``%time stmt`` keeps ``stmt``, moved left; the second value maps such a
    line's 0-based index to the columns it moved, to put findings back.
    """
    lines = cell.splitlines()
    shifts: dict[int, int] = {}
    if not lines:
        return [], shifts
    first = lines[0].lstrip()
    if first.startswith("%%"):
        magic = first[2:].split(None, 1)[0] if first[2:].split() else ""
        if magic not in PYTHON_CELL_MAGICS:
            return [""] * len(lines), shifts
        lines = [""] + lines[1:]
    out: list[str] = []
    state = _LineState()
    magic_continues = False
    for line in lines:
        if magic_continues:  # a magic's own backslash continuation lines
            out.append("")
            magic_continues = line.rstrip().endswith("\\")
            continue
        if not state.continues():
            timed = _PYTHON_LINE_MAGIC.match(line)
            if timed and not _is_python(line):
                shifts[len(out)] = timed.end() - len(timed.group("indent"))
                line = timed.group("indent") + line[timed.end():]
                out.append(line)
                state.feed(line)
                continue
            match = (_MAGIC_START.match(line) or _MAGIC_ASSIGNMENT.match(line)
                     or _HELP_SUFFIX.match(line))
            if match and not _is_python(line):
                out.append(match.group("indent") + "pass")
                magic_continues = line.rstrip().endswith("\\")
                continue
        out.append(line)
        state.feed(line)
    return out, shifts


class _LineState:
    """Just enough tokenizing to know whether the next line starts a statement.

    IPython reads ``%``, ``!`` and ``?`` as magics only at the start of a
    logical line: ``% b`` continuing ``x = (a`` is Python.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None  # the open string's quote (three of them for a triple)
        self.backslash = False

    def continues(self) -> bool:
        return self.depth > 0 or self.quote is not None or self.backslash

    def feed(self, line: str) -> None:
        self.backslash = False
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if self.quote is not None:
                if ch == "\\":
                    i += 2
                elif line.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                else:
                    i += 1
                continue
            if ch == "#":
                return
            if ch in "\"'":
                self.quote = ch * 3 if line.startswith(ch * 3, i) else ch
                i += len(self.quote)
                continue
            if ch in "([{":
                self.depth += 1
            elif ch in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        ends_with_backslash = line.endswith("\\")
        if self.quote is not None and len(self.quote) == 1 and not ends_with_backslash:
            self.quote = None  # a one-quote string cannot run past its line
        elif self.quote is None and ends_with_backslash:
            self.backslash = True


def _is_python(line: str) -> bool:
    """``x = a % b`` or ``a != b`` match nothing above; ``!=`` at a line start can't occur.

    Guards the assignment and help patterns against ordinary Python such as
    ``d = {}`` (no magic) -- only a line that does not compile alone and would
    compile once the magic is removed is treated as IPython.
    """
    try:
        ast.parse(line.strip(), mode="exec")
    except SyntaxError:
        return False
    return True


def join_cells(cells: list[str]) -> tuple[str, list[Cell], list[tuple[Cell, sources.Unreadable]]]:
    """One module from the cells, their places in it, and the cells Python rejects.

    A cell that does not compile (on its own, top-level ``await`` allowed, as
    IPython runs it) is reported and left out, so the others are still analysed.
    """
    parts: list[str] = []
    placed: list[Cell] = []
    rejected: list[tuple[Cell, sources.Unreadable]] = []
    line = 1
    for number, text in enumerate(cells, start=1):
        lines, shifts = python_lines_and_shifts(text)
        cell_text = "\n".join(lines) + "\n" if lines else ""
        cell = Cell(number, line, len(lines), text, shifts)
        why = _rejects(cell_text)
        if why is not None:
            rejected.append((cell, why))
            cell_text = "\n" * len(lines)
        placed.append(cell)
        parts.append(cell_text)
        line += len(lines)
    return "".join(parts), placed, rejected


def _rejects(text: str) -> sources.Unreadable | None:
    if "\0" in text:
        return sources.Unreadable("source code contains a NUL byte", text.count("\n", 0, text.index("\0")) + 1)
    try:
        compile(text, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as exc:
        return sources.Unreadable(f"syntax error: {exc.msg or 'invalid syntax'}", exc.lineno or 1,
                                  max(exc.offset or 1, 1))
    except (ValueError, MemoryError, RecursionError, OverflowError) as exc:
        return sources.Unreadable(f"Python cannot compile this cell: {exc or type(exc).__name__}")
    return None


def check_notebook_source(data: bytes, path: str, settings: Settings = DEFAULT_SETTINGS) -> list[Finding]:
    """Findings for a notebook's bytes; lines count within each finding's ``cell``."""
    return check_notebook_source_and_imports(data, path, settings)[0]


def check_notebook_source_and_imports(
    data: bytes, path: str, settings: Settings = DEFAULT_SETTINGS
) -> tuple[list[Finding], Imports]:
    """Findings, and the imported helpers the notebook calls (see core.check_source_and_imports)."""
    try:
        cells = code_cells(data)
    except BrokenNotebook as exc:
        return unreadable_findings(path, sources.Unreadable(str(exc)), settings), ()
    if cells is None:
        return [], ()
    text, placed, rejected = join_cells(cells)
    findings = []
    for cell, why in rejected:
        findings.extend(replace(f, cell=cell.number) for f in unreadable_findings(path, why, settings))
    failed: RuleFailed | None = None
    try:
        found, imports = check_source_and_imports(text, path, settings, compiled=True)
        if sources.names_mg_noqa(text):
            from mirrorguard.checker.rules.mg001_unused_noqa import with_unused_noqa

            found = with_unused_noqa(text, path, settings, found)
    except RuleFailed as exc:
        found, imports, failed = exc.findings, exc.imports, exc
    for finding in found:
        cell = _cell_of(placed, finding.line)
        line = finding.line - cell.first_line + 1
        column = finding.column + cell.shifts.get(line - 1, 0)
        end_line = end_column = None
        if finding.end_line is not None and finding.end_column is not None:
            end_line = finding.end_line - cell.first_line + 1
            end_column = finding.end_column + cell.shifts.get(end_line - 1, 0)
        findings.append(replace(finding, line=line, column=column, cell=cell.number,
                                end_line=end_line, end_column=end_column))
    findings.extend(_written_scripts(cells, path, settings))
    ordered = sorted(findings, key=lambda f: (f.cell or 0, f.line, f.column, f.code))
    if failed is not None:
        raise RuleFailed(failed.failures, ordered, imports)
    return ordered, imports


# ``%%writefile main.py`` (tensorflow/docs' multi-worker tutorials write their
# training script this way, then run it in other processes).
_WRITEFILE = re.compile(r"^%%writefile(?:\s+(?:-a|--append))?\s+(?P<name>\S+\.py)\s*$")


def _written_scripts(cells: list[str], path: str, settings: Settings) -> list[Finding]:
    """Findings in the Python files a notebook writes with ``%%writefile``: each
    is its own module (it runs in another process, not in the notebook's
    namespace), reported in its cell, a line below the magic."""
    findings = []
    for number, text in enumerate(cells, start=1):
        first, _, body = text.partition("\n")
        if not first.startswith("%%writefile") or not _WRITEFILE.match(first.strip()):
            continue
        for finding in check_source_and_imports(body, path, settings)[0]:
            end_line = finding.end_line + 1 if finding.end_line is not None else None
            findings.append(replace(finding, line=finding.line + 1, cell=number, end_line=end_line))
    return findings


def _cell_of(placed: list[Cell], line: int) -> Cell:
    for cell in reversed(placed):
        if cell.first_line <= line and cell.lines:
            return cell
    return placed[0]


def check_notebook(path: str, settings: Settings = DEFAULT_SETTINGS) -> list[Finding]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return unreadable_findings(path, sources.Unreadable(f"cannot read: {exc.strerror or exc}"), settings)
    return check_notebook_source(data, path, settings)

