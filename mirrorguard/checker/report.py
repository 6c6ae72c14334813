"""Findings to output: text, full, json, sarif or github, then statistics and a summary.

- ``text`` (also ``concise``): ``path:line:col: CODE message``; a notebook
  finding is ``path:cell N:line:col: CODE message`` (line and column within
  code cell N), as ruff writes them.
- ``full``: the text line, then the source line with a caret under the code.
- ``json``: an array of objects with path, line, column, end_line, end_column,
  code, name, message, url (the rule's documentation), fix (``{"applicability":
  "safe"}`` or ``"unsafe"``: what `mirrorguard fix` does with it, or null when it leaves
  it) and, for notebooks, ``cell``.
- ``sarif``: a SARIF 2.1.0 log for GitHub code scanning (see sarif.py).
- ``github``: GitHub Actions workflow commands, one annotation per finding,
  paths relative to ``GITHUB_WORKSPACE`` when it is set; a notebook finding
  points at the line of the ``.ipynb`` file that holds its cell line.

``show_fixes`` marks findings ``mirrorguard fix`` can fix with ``[*]`` (as ruff
does) and counts them by code.

The machine formats (json, sarif) keep their stream a single document:
statistics and the summary go to ``side`` (stderr). ``quiet`` prints findings only.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Callable, Sequence, TextIO

from mirrorguard.checker.findings import Finding

FORMATS = ("text", "concise", "full", "json", "sarif", "github")
# ANSI styles, as ruff uses them: bold paths, red codes, dim separators.
_BOLD, _RED, _CYAN, _BLUE, _RESET = "\x1b[1m", "\x1b[1;31m", "\x1b[36m", "\x1b[1;34m", "\x1b[0m"

# A function from (path, cell) to the lines of that file (or notebook cell), or None.
SourceLines = Callable[[str, "int | None"], "list[str] | None"]


def use_colour(stream: TextIO, environ=None) -> bool:
    """Colour on a terminal; ``NO_COLOR`` and ``TERM=dumb`` turn it off, ``FORCE_COLOR`` on (no-color.org)."""
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    if environ.get("FORCE_COLOR", "").lower() not in ("", "0", "false"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _paint(text: str, style: str, colour: bool) -> str:
    return f"{style}{text}{_RESET}" if colour else text


def location(finding: Finding) -> str:
    if finding.cell is not None:
        return f"{finding.path}:cell {finding.cell}:{finding.line}:{finding.column}"
    return f"{finding.path}:{finding.line}:{finding.column}"


def text_line(finding: Finding, colour: bool = False, marker: str = "") -> str:
    """``path:line:col: CODE message``; ``marker`` (``[*]``: fixable) goes after the code."""
    mark = f" {marker}" if marker else ""
    if not colour:
        return f"{location(finding)}: {finding.code}{mark} {finding.message}"
    where = location(finding).split(":")
    coloured = _paint(where[0], _BOLD, True) + "".join(_paint(":", _CYAN, True) + part for part in where[1:])
    mark = f" {_paint(marker, _CYAN, True)}" if marker else ""
    return f"{coloured}{_paint(':', _CYAN, True)} {_paint(finding.code, _RED, True)}{mark} {finding.message}"


def full_lines(finding: Finding, lines: list[str] | None, colour: bool = False, marker: str = "") -> list[str]:
    """The text line, then the flagged source line with carets under the flagged code."""
    out = [text_line(finding, colour, marker)]
    if not lines or not 1 <= finding.line <= len(lines):
        return out + [""]
    source = lines[finding.line - 1].rstrip("\r\n")
    start = max(finding.column - 1, 0)
    if finding.end_line == finding.line and finding.end_column is not None:
        end = max(finding.end_column - 1, start + 1)
    else:
        end = max(len(source.rstrip()), start + 1)
    number = str(finding.line)
    gutter = " " * len(number)
    # Keep tabs in the padding so the carets line up under the code.
    padding = "".join(ch if ch == "\t" else " " for ch in source[:start])
    bar = _paint("|", _BLUE, colour)
    carets = _paint("^" * (end - start) + " " + finding.code, _RED, colour)
    return out + [
        f"{gutter} {bar}",
        f"{_paint(number, _BLUE, colour)} {bar} {source}",
        f"{gutter} {bar} {padding}{carets}",
        f"{gutter} {bar}",
        "",
    ]


def github_line(finding: Finding, workspace: str | None = None, file_line: int | None = None) -> str:
    """``::error file=...,line=...,col=...,title=MG101 name::message``.

    ``file`` is relative to ``workspace`` (the repository root, where GitHub
    looks files up) when the file is inside it. A notebook finding says the
    cell and line in the message, and ``line=`` is ``file_line``, the line of
    the ``.ipynb`` file that holds that cell line (its first line when unknown).
    """
    path = finding.path
    if workspace:
        from mirrorguard.checker.files import display_path

        shown = display_path(path, workspace)
        path = shown if not os.path.isabs(shown) else path
    properties = [f"file={_escape_property(path)}"]
    message = finding.message
    if finding.cell is None:
        properties += [f"line={finding.line}", f"col={finding.column}"]
    else:
        properties.append(f"line={file_line or 1}")
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


def fix_applicability(code: str) -> str | None:
    """"safe" or "unsafe" for a code whose rule has a fix, else None."""
    from mirrorguard.checker.rules import RULES_BY_CODE

    kind = getattr(RULES_BY_CODE.get(code), "fix_safety", "none")
    return kind if kind in ("safe", "unsafe") else None


# How a finding can be fixed: "safe", "unsafe" or None. By default, by its rule's fix;
# `check` passes what the fixer would really do (see cli/check.py).
Fixability = Callable[[Finding], "str | None"]


def rule_fixability(finding: Finding) -> str | None:
    return fix_applicability(finding.code) if finding.fixable else None


def fixable_counts(findings: Sequence[Finding], fixability: Fixability) -> tuple[int, int]:
    """(findings with a safe fix, findings with only an unsafe one)."""
    kinds = Counter(fixability(finding) for finding in findings)
    return kinds["safe"], kinds["unsafe"]


def json_entry(finding: Finding, fixability: Fixability = rule_fixability) -> dict:
    """A finding as the json format writes it: its fields, the rule's documentation URL and how
    `mirrorguard fix` fixes it (``fixability``: `check` passes the fixer's own answer)."""
    from mirrorguard.checker.rules import RULES_BY_CODE

    data = finding.as_dict()
    if "end_line" not in data:  # a whole-line finding (MG000): it ends where it starts
        data["end_line"], data["end_column"] = finding.line, finding.column
    rule = RULES_BY_CODE.get(finding.code)
    data["url"] = rule.help_uri if rule is not None else None
    applicability = fixability(finding)
    data["fix"] = {"applicability": applicability} if applicability else None
    return data


def fixes_lines(findings: Sequence[Finding], unsafe: bool, fixability: Fixability) -> list[str]:
    """``--show-fixes``: how many findings of each code `mirrorguard fix` can fix."""
    counts = Counter(f.code for f in findings if fixability(f) in (("safe", "unsafe") if unsafe else ("safe",)))
    if not counts:
        return ["No finding can be fixed with `mirrorguard fix" + (" --unsafe-fixes`." if unsafe else "`.")]
    command = "mirrorguard fix --unsafe-fixes" if unsafe else "mirrorguard fix"
    return [f"Fixable with `{command}`:"] + [f"  {count:>3}  {code}" for code, count in sorted(counts.items())]


def summary(findings: Sequence[Finding], files_checked: int, errors: bool = False,
            fixability: Fixability | None = None) -> str:
    """The closing line. ``fixability`` is what `fix` does with each finding, known only when
    the fixer ran (``--show-fixes``); without it no count is claimed, only where to get one."""
    checked = f"{files_checked} file{'s' if files_checked != 1 else ''} checked"
    if not findings and errors:
        return f"No findings ({checked}), but the run had errors (see above)."
    if not findings and not files_checked:
        return "No files checked: nothing passed or failed (see the warnings above)."
    if not findings:
        return f"All checks passed ({checked})."
    with_findings = len({finding.path for finding in findings})
    head = (
        f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} "
        f"in {with_findings} file{'s' if with_findings != 1 else ''} ({checked})"
    )
    if fixability is None:
        if any(rule_fixability(finding) for finding in findings):
            return f"{head}; `--show-fixes` counts those `mirrorguard fix` fixes."
        return head + "."
    safe, unsafe = fixable_counts(findings, fixability)
    if safe and unsafe:
        return f"{head}; {safe} fixable with `mirrorguard fix` ({unsafe} more with `--unsafe-fixes`)."
    if safe:
        return f"{head}; {safe} fixable with `mirrorguard fix`."
    if unsafe:
        return f"{head}; {unsafe} fixable with `mirrorguard fix --unsafe-fixes`."
    return head + "."


def write(findings: Sequence[Finding], files_checked: int, stream: TextIO,
          output_format: str = "text", quiet: bool = False, *, show_statistics: bool = False,
          side: TextIO | None = None, root: str | None = None, exit_code: int | None = None,
          colour: bool = False, source_lines: SourceLines | None = None,
          workspace: str | None = None, show_fixes: bool = False, unsafe_fixes: bool = False,
          fixability: Fixability | None = None) -> None:
    """Write ``findings``; ``side`` (stderr) takes statistics and summary for json and sarif.

    An ``exit_code`` of 2 (errors were reported) never reads as "All checks passed".
    ``fixability`` says how `fix` fixes each finding (the ``[*]`` marks and the counts); it is
    known only when the fixer ran, and without it neither marks nor counts are written.
    """
    fixable = ("safe", "unsafe") if unsafe_fixes else ("safe",)

    def marker(finding: Finding) -> str:
        return "[*]" if show_fixes and fixability is not None and fixability(finding) in fixable else ""

    if output_format == "json":
        json.dump([json_entry(finding, fixability or rule_fixability) for finding in findings], stream, indent=2)
        stream.write("\n")
    elif output_format == "sarif":
        from mirrorguard.checker.sarif import to_sarif

        json.dump(to_sarif(findings, root, exit_code), stream, indent=2)
        stream.write("\n")
    elif output_format == "github":
        for finding in findings:
            file_line = None
            if finding.cell is not None and hasattr(source_lines, "file_line"):
                file_line = source_lines.file_line(finding.path, finding.cell, finding.line)
            stream.write(github_line(finding, workspace, file_line) + "\n")
    elif output_format == "full":
        for finding in findings:
            lines = source_lines(finding.path, finding.cell) if source_lines else None
            stream.write("\n".join(full_lines(finding, lines, colour, marker(finding))) + "\n")
    else:
        for finding in findings:
            stream.write(text_line(finding, colour, marker(finding)) + "\n")
    if quiet:
        return
    closing = side if output_format in ("json", "sarif") else stream
    if closing is None:
        return
    if show_statistics and findings:
        for row in statistics(findings):
            closing.write(row + "\n")
    if show_fixes and findings and fixability is not None:
        for row in fixes_lines(findings, unsafe_fixes, fixability):
            closing.write(row + "\n")
    closing.write(summary(findings, files_checked, errors=exit_code == 2, fixability=fixability) + "\n")
