"""Findings to output: text, json, sarif or github, then statistics and a summary.

- ``text``: ``path:line:col: CODE message``; a notebook finding is
  ``path:cell N:line:col: CODE message`` (line and column within code cell N),
  as ruff writes them.
- ``json``: an array of objects with path, line, column, code, name, message
  (and ``cell`` for notebooks).
- ``sarif``: a SARIF 2.1.0 log for GitHub code scanning (see sarif.py).
- ``github``: GitHub Actions workflow commands, one annotation per finding.

The machine formats (json, sarif) keep stdout a single document: statistics
and the summary go to stderr with them. ``quiet`` prints findings only.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Sequence, TextIO

from mirrorguard.checker.findings import Finding

FORMATS = ("text", "json", "sarif", "github")


def location(finding: Finding) -> str:
    if finding.cell is not None:
        return f"{finding.path}:cell {finding.cell}:{finding.line}:{finding.column}"
    return f"{finding.path}:{finding.line}:{finding.column}"


def text_line(finding: Finding) -> str:
    return f"{location(finding)}: {finding.code} {finding.message}"


def github_line(finding: Finding) -> str:
    """``::error file=...,line=...,col=...,title=MG101 name::message``.

    A notebook finding names the file only (its lines are JSON, not code) and
    says the cell and line in the message.
    """
    properties = [f"file={_escape_property(finding.path)}"]
    message = finding.message
    if finding.cell is None:
        properties += [f"line={finding.line}", f"col={finding.column}"]
    else:
        message = f"cell {finding.cell}, line {finding.line}, column {finding.column}: {message}"
    properties.append(f"title={_escape_property(f'{finding.code} {finding.name}')}")
    return f"::error {','.join(properties)}::{_escape_data(message)}"


def _escape_data(value: str) -> str:
    # As @actions/core escapes command data.
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def statistics(findings: Sequence[Finding]) -> list[str]:
    """``  12  MG101  model-built-outside-strategy-scope``, most frequent first."""
    counts = Counter(finding.code for finding in findings)
    names = {finding.code: finding.name for finding in findings}
    width = max((len(str(n)) for n in counts.values()), default=1)
    return [f"{count:>{width}}  {code}  {names[code]}"
            for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def summary(findings: Sequence[Finding], files_checked: int) -> str:
    checked = f"{files_checked} file{'s' if files_checked != 1 else ''} checked"
    if not findings:
        return f"All checks passed ({checked})."
    with_findings = len({finding.path for finding in findings})
    return (
        f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} "
        f"in {with_findings} file{'s' if with_findings != 1 else ''} ({checked})."
    )


def write(findings: Sequence[Finding], files_checked: int, stream: TextIO,
          output_format: str = "text", quiet: bool = False, *, show_statistics: bool = False,
          side: TextIO | None = None, root: str | None = None, exit_code: int | None = None) -> None:
    """Write ``findings``; ``side`` (stderr) takes statistics and summary for json and sarif."""
    if output_format == "json":
        json.dump([finding.as_dict() for finding in findings], stream, indent=2)
        stream.write("\n")
    elif output_format == "sarif":
        from mirrorguard.checker.sarif import to_sarif

        json.dump(to_sarif(findings, root, exit_code), stream, indent=2)
        stream.write("\n")
    else:
        line = github_line if output_format == "github" else text_line
        for finding in findings:
            stream.write(line(finding) + "\n")
    if quiet:
        return
    closing = stream if output_format in ("text", "github") else side
    if closing is None:
        return
    if show_statistics and findings:
        for row in statistics(findings):
            closing.write(row + "\n")
    closing.write(summary(findings, files_checked) + "\n")
