"""Findings as a SARIF 2.1.0 log, the format GitHub code scanning uploads.

One run; ``tool.driver.rules`` lists every rule with its name, summary, full
docs (``rule.render_docs()``) and help URI; each result points at its rule by
id and index. Paths are relative URIs against ``%SRCROOT%`` (the folder the
run started in, where a CI checkout's root is), so code scanning can place
them. A result's region spans the flagged code (``endLine``/``endColumn``,
the end column one past its last character). A notebook finding's region is
the line of the ``.ipynb`` file that holds the flagged line of the cell's
source (each source line is a JSON string of its own in nbformat 4); its
message and properties say the cell, line and column.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from mirrorguard import __version__
from mirrorguard.checker.findings import Finding

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mirrorguard/mirrorguard"


def to_sarif(findings: Sequence[Finding], root: str | None = None, exit_code: int | None = None) -> dict:
    from mirrorguard.checker.rules import ALL_RULES

    root = os.path.abspath(root or os.getcwd())
    index = {rule.code: i for i, rule in enumerate(ALL_RULES)}
    notebooks: dict[str, list[list[int]] | None] = {}
    results = []
    for finding in findings:
        message = finding.message
        physical: dict = {"artifactLocation": {"uri": _uri(finding.path, root), "uriBaseId": "%SRCROOT%"}}
        properties = {}
        if finding.cell is None:
            region = {"startLine": finding.line, "startColumn": finding.column}
            if finding.end_line is not None and finding.end_column is not None:
                region.update(endLine=finding.end_line, endColumn=finding.end_column)
            physical["region"] = region
        else:
            message = f"cell {finding.cell}, line {finding.line}, column {finding.column}: {message}"
            properties = {"cell": finding.cell, "cellLine": finding.line, "cellColumn": finding.column}
            if finding.path not in notebooks:
                notebooks[finding.path] = notebook_source_lines(finding.path)
            line = notebook_file_line(notebooks[finding.path], finding.cell, finding.line)
            if line is not None:
                physical["region"] = {"startLine": line}
        result = {
            "ruleId": finding.code,
            "level": "error",
            "message": {"text": message},
            "locations": [{"physicalLocation": physical}],
        }
        if finding.code in index:
            result["ruleIndex"] = index[finding.code]
        if properties:
            result["properties"] = properties
        results.append(result)
    run: dict = {
        "tool": {
            "driver": {
                "name": "mirrorguard",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(rule) for rule in ALL_RULES],
            }
        },
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(root).as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if exit_code is not None:
        run["invocations"] = [{"executionSuccessful": exit_code in (0, 1), "exitCode": exit_code}]
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def _rule(rule) -> dict:
    docs = rule.render_docs()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": docs, "markdown": docs},
        "help": {"text": docs, "markdown": docs},
        "helpUri": rule.help_uri,
        "defaultConfiguration": {"enabled": rule.default_enabled, "level": "error"},
        "properties": {"tags": ["tf.distribute", "correctness"]},
    }


def _uri(path: str, root: str) -> str:
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, root) if _under(absolute, root) else None
    if relative is None:
        return Path(absolute).as_uri()
    return quote(relative.replace(os.sep, "/"))


def _under(path: str, root: str) -> bool:
    return path.startswith(root.rstrip(os.sep) + os.sep)


# -- notebook lines ------------------------------------------------------------

class _Located(str):
    """A JSON string that remembers the offset of its opening quote."""

    offset: int = 0


_BLANK = re.compile(r"[ \t\n\r]*")


def _parse(text: str, at: int):
    """One JSON value from ``text[at:]`` (``at`` past any blanks): (value, end), strings located."""
    char = text[at]
    if char == '"':
        value, end = json.decoder.scanstring(text, at + 1)
        located = _Located(value)
        located.offset = at
        return located, end
    if char in "[{":
        closing = "]" if char == "[" else "}"
        items: list = []
        pairs: dict = {}
        at = _BLANK.match(text, at + 1).end()
        if text[at] == closing:
            return (items if char == "[" else pairs), at + 1
        while True:
            if char == "{":
                key, at = _parse(text, at)
                at = _BLANK.match(text, at).end() + 1  # the colon
                at = _BLANK.match(text, at).end()
                pairs[str(key)], at = _parse(text, at)
            else:
                value, at = _parse(text, at)
                items.append(value)
            at = _BLANK.match(text, at).end()
            if text[at] == closing:
                return (items if char == "[" else pairs), at + 1
            at = _BLANK.match(text, at + 1).end()  # past the comma
    return json.JSONDecoder().raw_decode(text, at)


def notebook_source_lines(path: str, data: bytes | None = None) -> list[list[int]] | None:
    """For each code cell of the notebook at ``path`` (nbformat 4), or of its bytes
    ``data``, the 1-based line of the file on which each line of its source starts;
    None if unreadable."""
    try:
        if data is None:
            with open(path, encoding="utf-8-sig") as handle:
                text = handle.read()
        else:
            text = data.decode("utf-8-sig")
        notebook, _ = _parse(text, _BLANK.match(text).end())
        cells = notebook["cells"]
    except (OSError, UnicodeDecodeError, ValueError, IndexError, KeyError, TypeError, RecursionError):
        return None
    result = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        parts = source if isinstance(source, list) else [source]
        starts: list[int] = []
        starts_new_line = True
        for part in parts:
            if not isinstance(part, _Located):
                break
            line = text.count("\n", 0, part.offset) + 1
            # Every line of the cell that starts in this string starts on its JSON line.
            if starts_new_line:
                starts.append(line)
            starts += [line] * part.count("\n", 0, max(len(part) - 1, 0))
            starts_new_line = part.endswith("\n")
        result.append(starts)
    return result


def notebook_file_line(cells: list[list[int]] | None, cell: int, line: int) -> int | None:
    """The file line of ``line`` of code cell ``cell``, from :func:`notebook_source_lines`; None if unknown."""
    if cells is None or not 1 <= cell <= len(cells) or not 1 <= line <= len(cells[cell - 1]):
        return None
    return cells[cell - 1][line - 1]
