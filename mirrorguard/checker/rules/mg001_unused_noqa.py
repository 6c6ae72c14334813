"""MG001 unused-noqa: a ``# noqa: MGxxx`` comment that silences nothing (ruff's RUF100, for this tool's codes)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from mirrorguard.checker import source as sources
from mirrorguard.checker.findings import Finding
from mirrorguard.checker.rules.base import Rule

if TYPE_CHECKING:
    from mirrorguard.checker.core import Settings

_CODE = re.compile(r"^[A-Za-z]+[0-9]+$")

RULE = Rule(
    code="MG001",
    name="unused-noqa",
    summary="A `# noqa: MGxxx` comment that silences no finding",
    docs="""
    ## What it does
    Reports each code of a `# noqa: ...` comment that names a mirrorguard code
    (or prefix) no finding on that line has: the mistake was fixed, the line
    moved, or the code is misspelled. Codes are compared as written, as flake8
    compares them, so `# noqa: mg101` silences nothing and is reported too.
    Codes of other tools (`E501`) and bare `# noqa` are left alone: they may
    silence another linter.

    ## Why is this bad?
    A stale `# noqa: MG101` silences the next real MG101 on that line, long
    after the reason for it has gone; a lower-case code looks as if it works
    and does not.

    ## Example
    ```python
    with strategy.scope():
        model = build_model()  # noqa: MG101
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = build_model()
    ```

    ## Options
    Reported only for codes of rules that are selected (a `# noqa: MG201` in a
    run that ignores MG201 may be needed by another run). A finding that only
    cross-file analysis finds needs it on: with `--no-cross-file` its noqa
    reads as unused.
    """,
)


def unused_noqa(text: str, path: str, settings: "Settings", raw: list[Finding]) -> list[Finding]:
    """MG001 findings for ``text``, given its findings before any ``# noqa`` applied (``raw``)."""
    from mirrorguard.checker.config import unknown_code_message

    if sources.file_is_noqa(text):
        return []  # flake8 skips the whole file: no comment in it is used or unused
    found: dict[int, list[str]] = {}
    for finding in raw:
        found.setdefault(finding.line, []).append(finding.code)
    lines = re.split(r"\r\n|\r|\n", text)
    out = []
    for number, code in sources.noqa_comment_codes(text):
        if not _CODE.match(code) or not code.upper().startswith("MG"):
            continue  # another tool's code
        if any(existing.startswith(code) for existing in found.get(number, ())):
            continue
        if code == code.upper():
            if unknown_code_message(code, "`# noqa`") is not None:
                continue  # no rule has it: an error of its own, reported by the run
            if not any(settings.enabled(rule_code) for rule_code in _codes_under(code)):
                continue  # its rules are off in this run; another run may need it
            message = (f"unused `# noqa` code `{code}`: no {code} finding on this line; remove it")
        else:
            message = (f"`# noqa` code `{code}` silences nothing: codes are compared as written; "
                       f"write `{code.upper()}`, or remove it")
        line_text = lines[number - 1] if number <= len(lines) else ""
        if sources.suppressed(RULE.code, sources.noqa_codes(line_text)):
            continue  # the comment silences MG001 itself, as flake8 would
        column = line_text.find("#") + 1 or 1
        out.append(Finding(path, number, column, RULE.code, RULE.name, message,
                           end_line=number, end_column=len(line_text.rstrip()) + 1))
    return out


def _codes_under(prefix: str) -> list[str]:
    from mirrorguard.checker.rules import RULES_BY_CODE

    return [code for code in RULES_BY_CODE if code.startswith(prefix)]


def with_unused_noqa(text: str, path: str, settings: "Settings", findings: list[Finding]) -> list[Finding]:
    """``findings`` and, when MG001 is on and a ``# noqa`` names an MG code, the unused ones.

    Only such files are analysed a second time (without noqa) to see what each comment silences.
    """
    if not settings.respect_noqa or not settings.enabled(RULE.code) or not sources.names_mg_noqa(text):
        return findings
    from mirrorguard.checker.core import check_source

    raw = check_source(text, path, replace(settings, respect_noqa=False))
    extra = unused_noqa(text, path, settings, raw)
    return sorted(findings + extra) if extra else findings

