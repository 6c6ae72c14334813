"""Findings as a SARIF 2.1.0 log, the format GitHub code scanning uploads.

One run; ``tool.driver.rules`` lists every rule with its name, summary, full
docs (``rule.render_docs()``) and help URI; each result points at its rule by
id and index. Paths are relative URIs against ``%SRCROOT%`` (the folder the
run started in, where a CI checkout's root is), so code scanning can place them.
Notebook findings have no line of the ``.ipynb`` file to point at: the result
names the file, and its message and properties say the cell and line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from mirrorguard import __version__
from mirrorguard.checker.findings import Finding

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SCHEMA_FILE = Path(__file__).with_name("schemas") / "sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/mirrorguard/mirrorguard"


def to_sarif(findings: Sequence[Finding], root: str | None = None, exit_code: int | None = None) -> dict:
    from mirrorguard.checker.rules import ALL_RULES

    root = os.path.abspath(root or os.getcwd())
    index = {rule.code: i for i, rule in enumerate(ALL_RULES)}
    results = []
    for finding in findings:
        message = finding.message
        physical: dict = {"artifactLocation": {"uri": _uri(finding.path, root), "uriBaseId": "%SRCROOT%"}}
        properties = {}
        if finding.cell is None:
            physical["region"] = {"startLine": finding.line, "startColumn": finding.column}
        else:
            message = f"cell {finding.cell}, line {finding.line}, column {finding.column}: {message}"
            properties = {"cell": finding.cell, "cellLine": finding.line, "cellColumn": finding.column}
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
