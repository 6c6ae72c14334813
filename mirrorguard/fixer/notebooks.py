"""Notebooks: fix the code cells as the one program the checker sees, then put each cell back.

The checker joins a notebook's code cells into one module, IPython syntax
neutralised line for line (:mod:`mirrorguard.checker.notebooks`). The fixer
works on that module with a :class:`~mirrorguard.fixer.fix.Layout` that keeps
every fix inside one cell: lines may not leave their cell, magic lines may not
change, and each changed cell must compile on its own. Since every output line
knows the line it came from, the result splits back into cells; magic lines are
put back as they were written.

Only the ``source`` of changed code cells is replaced. The notebook is written
back with the JSON layout it had (indentation, key order, ASCII escaping,
separators, final newline, BOM, CRLF), found by re-serialising the original and
comparing: a notebook whose layout cannot be reproduced byte for byte is not
rewritten. Before anything is written, the new notebook is read back as the
checker reads it and must give exactly the fixed program.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from mirrorguard.checker import notebooks as nb
from mirrorguard.checker.core import DEFAULT_SETTINGS, Settings, check_source
from mirrorguard.checker.findings import Finding
from mirrorguard.fixer.fix import COMPILE_FAILS, FixResult, Layout, fix_source, regions_of
from mirrorguard.fixer.lines import split_lines

BOM = "\ufeff"
CHANGES_MAGIC = "the fix would change a line with IPython syntax (a magic); move it by hand"
UNREADABLE_NOTEBOOK = "a code cell cannot be parsed, so the notebook is not changed"
LAYOUT_UNKNOWN = (
    "the notebook's JSON layout cannot be reproduced byte for byte, so it is not rewritten; "
    "fix the cells by hand"
)
ROUND_TRIP_FAILS = "internal: the fixed cells do not read back as the fixed program; the notebook is left as it is"


class NotFixable(Exception):
    """The notebook as a whole is left alone; the message says why."""


@dataclass(frozen=True)
class JsonLayout:
    """How a notebook's JSON was written, enough to write it again the same way."""

    indent: str | None
    separators: tuple[str, str]
    ensure_ascii: bool
    tail: str  # what follows the closing brace (usually one newline)
    newline: str  # "\n" or "\r\n"
    bom: bool

    def dump(self, notebook: Any) -> str:
        text = json.dumps(notebook, indent=self.indent, separators=self.separators,
                          ensure_ascii=self.ensure_ascii) + self.tail
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return (BOM if self.bom else "") + text


def json_layout(text: str, notebook: Any) -> JsonLayout | None:
    """The ``json.dumps`` settings that give back ``text`` exactly, or None."""
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    newline = "\r\n" if "\r\n" in body else "\n"
    if newline == "\r\n":
        if "\n" in body.replace("\r\n", ""):
            return None  # mixed line breaks
        body = body.replace("\r\n", "\n")
    content = body.rstrip(" \t\n")
    tail = body[len(content):]
    match = re.match(r"[\[{]\n([ \t]+)\S", content)
    indents: list[str | None] = [match.group(1)] if match else [None]
    separator_choices = [(",", ": ")] if indents[0] is not None else [(", ", ": "), (",", ":")]
    for indent in indents:
        for separators in separator_choices:
            for ensure_ascii in (False, True):
                layout = JsonLayout(indent, separators, ensure_ascii, tail, newline, bom)
                try:
                    if layout.dump(notebook) == text:
                        return layout
                except (ValueError, TypeError, RecursionError):
                    return None
    return None


def code_cell_sources(notebook: dict) -> list[tuple[dict, str]]:
    """Each code cell (the dict) with the key of its source, in the order the checker reads them."""
    if "cells" in notebook:  # nbformat 4
        cells, key = notebook["cells"], "source"
    else:  # nbformat 3
        cells = [c for ws in notebook.get("worksheets", []) if isinstance(ws, dict) for c in (ws.get("cells") or [])]
        key = "input"
    return [(cell, key) for cell in cells if cell.get("cell_type") == "code"]


def _lines_and_breaks(source: str) -> tuple[list[str], list[str]]:
    """A cell's lines as the checker splits them (``str.splitlines``), and each one's break."""
    with_breaks = source.splitlines(True)
    lines = source.splitlines()
    return lines, [full[len(line):] for full, line in zip(with_breaks, lines)]


class JoinedNotebook:
    """A notebook's code cells as one program, and the way back from a fixed program to cells."""

    def __init__(self, sources: list[str]) -> None:
        self.sources = sources
        self.text, self.cells, self.rejected = nb.join_cells(sources)
        self.joined_lines = [line[:-1] if line.endswith("\n") else line for line in split_lines(self.text)]
        self.regions: list[int] = []
        self.frozen: set[int] = set()
        self.originals: list[str] = []  # each joined line as the cell has it
        self.breaks: list[str] = []
        for cell in self.cells:
            lines, breaks = _lines_and_breaks(cell.source)
            assert len(lines) == cell.lines
            for k, line in enumerate(lines):
                index = cell.first_line - 1 + k
                self.regions.append(cell.number)
                self.originals.append(line)
                self.breaks.append(breaks[k])
                if self.joined_lines[index] != line:
                    self.frozen.add(index)

    def layout(self, path: str, settings: Settings) -> Layout:
        return Layout(
            regions=self.regions,
            frozen=frozenset(self.frozen),
            compiles=_compile_problem,
            check=lambda text: check_source(text, path, settings, compiled=True),
            guard=self.guard,
        )

    # --- from a fixed program back to cells ------------------------------------------

    def guard(self, text: str, origins: list[int | None]) -> str | None:
        """Why a candidate program cannot be put back into cells, or None."""
        try:
            sources = self.cell_sources(text, origins)
        except NotFixable as exc:
            return str(exc)
        for number, (old, new) in enumerate(zip(self.sources, sources), start=1):
            if new != old and _compile_problem("\n".join(nb.python_lines(new)) + "\n") is not None:
                return f"the fix would leave code cell {number} unable to run on its own; move it by hand"
        return None

    def cell_sources(self, text: str, origins: list[int | None]) -> list[str]:
        """Each code cell's new source; raises NotFixable if a line would leave its cell or a
        magic line would change or disappear."""
        lines = split_lines(text)
        if len(lines) != len(origins):
            raise NotFixable(COMPILE_FAILS)
        contents = [line[:-1] if line.endswith("\n") else line for line in lines]
        parts = regions_of(origins, self.regions)
        if any(a > b for a, b in zip(parts, parts[1:])):
            raise NotFixable("the fix would move code between notebook cells; move it by hand")
        kept = {o for o in origins if o is not None}
        if any(index not in kept for index in self.frozen):
            raise NotFixable(CHANGES_MAGIC)
        by_cell: dict[int, list[tuple[str, int | None]]] = {cell.number: [] for cell in self.cells}
        for content, origin, part in zip(contents, origins, parts):
            by_cell[part].append((content, origin))
        sources = []
        for cell in self.cells:
            entries = by_cell[cell.number]
            first = cell.first_line - 1
            identity = [(self.joined_lines[i], i) for i in range(first, first + cell.lines)]
            if entries == identity:
                sources.append(cell.source)  # untouched: exactly as it was, whatever its line breaks
                continue
            sources.append(self._rebuild(cell, entries))
        return sources

    def _rebuild(self, cell: nb.Cell, entries: list[tuple[str, int | None]]) -> str:
        first = cell.first_line - 1
        own = [b for b in self.breaks[first:first + cell.lines] if b]
        default = own[0] if own else "\n"
        out: list[str] = []
        for content, origin in entries:
            if origin is not None and origin in self.frozen:
                if content != self.joined_lines[origin]:
                    raise NotFixable(CHANGES_MAGIC)
                content = self.originals[origin]
            brk = self.breaks[origin] if origin is not None and self.breaks[origin] else default
            out.append(content + brk)
        ends_with_break = bool(cell.lines) and bool(self.breaks[first + cell.lines - 1])
        if out:  # the cell ends as it did: with a line break or (as Jupyter writes them) without
            last = out[-1]
            bare = last.rstrip("\r\n")
            if not ends_with_break:
                out[-1] = bare
            elif bare == last:
                out[-1] = bare + default
        return "".join(out)


def _compile_problem(text: str) -> str | None:
    """Like the checker's own test for a cell: top-level ``await`` allowed, as IPython runs it."""
    try:
        compile(text, "<notebook>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except (SyntaxError, ValueError, MemoryError, RecursionError, OverflowError):
        return COMPILE_FAILS
    return None


@dataclass
class NotebookFix:
    before: str  # the notebook's text as read (decoded, BOM included)
    after: str
    result: FixResult  # text/original: the notebook's JSON text; findings placed in cells


def fix_notebook_source(data: bytes, path: str, settings: Settings = DEFAULT_SETTINGS, *,
                        unsafe: bool = False) -> NotebookFix:
    """Fix a notebook's bytes; raises NotFixable (with why) when it is to be left alone as a whole."""
    try:
        sources = nb.code_cells(data)
    except nb.BrokenNotebook as exc:
        raise NotFixable(str(exc)) from None
    text = data.decode("utf-8")  # code_cells decoded it as utf-8-sig already
    if sources is None:  # another language: nothing the checker reads
        return NotebookFix(text, text, FixResult(text, text))
    joined = JoinedNotebook(sources)
    if joined.rejected:
        raise NotFixable(UNREADABLE_NOTEBOOK)
    result = fix_source(joined.text, path, settings, unsafe=unsafe, layout=joined.layout(path, settings))
    if result.unreadable:
        raise NotFixable(UNREADABLE_NOTEBOOK)
    before_places = _places(joined, list(range(len(joined.regions))))
    fixed = [_in_cell(f, before_places) for f in result.fixed]
    if not result.changed:
        remaining = [(_in_cell(f, before_places), why) for f, why in result.remaining]
        return NotebookFix(text, text, FixResult(text, text, fixed=fixed, remaining=remaining))
    notebook = json.loads(text.lstrip(BOM))
    layout = json_layout(text, notebook)
    if layout is None:
        raise NotFixable(LAYOUT_UNKNOWN)
    new_sources = joined.cell_sources(result.text, result.origins)  # the guard accepted every step
    for (cell, key), old, new in zip(code_cell_sources(notebook), sources, new_sources):
        if new != old:
            cell[key] = new.splitlines(True) if isinstance(cell.get(key), list) else new
    after = layout.dump(notebook)
    if nb.code_cells(after.encode("utf-8")) != new_sources or nb.join_cells(new_sources)[0] != result.text:
        raise NotFixable(ROUND_TRIP_FAILS)
    after_places = _places(joined, result.origins)
    remaining = [(_in_cell(f, after_places), why) for f, why in result.remaining]
    return NotebookFix(text, after, FixResult(after, text, fixed=fixed, remaining=remaining))


def _places(joined: JoinedNotebook, origins: list[int | None]) -> list[tuple[int, int, int]]:
    """For each line of a (fixed) program: its cell, its 1-based line there, and its column shift."""
    parts = regions_of(origins, joined.regions)
    shifts = {cell.number: cell for cell in joined.cells}
    places = []
    count: dict[int, int] = {}
    for origin, part in zip(origins, parts):
        count[part] = count.get(part, 0) + 1
        shift = 0
        if origin is not None:
            cell = shifts[joined.regions[origin]]
            shift = cell.shifts.get(origin - (cell.first_line - 1), 0)
        places.append((part, count[part], shift))
    return places


def _in_cell(finding: Finding, places: list[tuple[int, int, int]]) -> Finding:
    from dataclasses import replace

    if not 1 <= finding.line <= len(places):
        return finding
    cell, line, shift = places[finding.line - 1]
    return replace(finding, line=line, column=finding.column + shift, cell=cell)
