"""Findings to text: one line each (``path:line:col: CODE message``) or JSON."""

from __future__ import annotations

import json
from typing import Sequence, TextIO

from mirrorguard.checker.findings import Finding

FORMATS = ("text", "json")


def write(findings: Sequence[Finding], files_checked: int, stream: TextIO,
          output_format: str = "text", quiet: bool = False) -> None:
    if output_format == "json":
        json.dump([finding.as_dict() for finding in findings], stream, indent=2)
        stream.write("\n")
        return
    for finding in findings:
        stream.write(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {finding.message}\n")
    if not quiet:
        stream.write(summary(findings, files_checked) + "\n")


def summary(findings: Sequence[Finding], files_checked: int) -> str:
    checked = f"{files_checked} file{'s' if files_checked != 1 else ''} checked"
    if not findings:
        return f"All checks passed ({checked})."
    with_findings = len({finding.path for finding in findings})
    return (
        f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} "
        f"in {with_findings} file{'s' if with_findings != 1 else ''} ({checked})."
    )
