"""``mirrorguard check --add-noqa``: silence today's findings with ``# noqa: CODE`` on their lines.

For a code base adopting mirrorguard: the findings already there are marked,
new ones are reported. Each line gets one ``# noqa`` comment listing its
codes; a line that already has ``# noqa: E501`` gets the codes added to it.
Adding twice changes nothing (marked findings are no longer reported).
Files keep their encoding, BOM and line breaks and are written atomically.
A line that ends inside a multi-line string or with a backslash cannot take
a comment: it is named, and left alone. Notebooks are not edited: their
findings are named in a note (they stay reported), which is no error.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import defaultdict
from typing import Iterable

from mirrorguard.checker import source as sources

_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_NOQA_CODES = re.compile(r"(#\s*noqa)(?::\s?(?P<codes>(?:[A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)


def add_noqa(findings: Iterable) -> tuple[int, int, list[str], list[str]]:
    """Mark each finding's line; (comments added or extended, files written, problems, notes).

    Problems are files that could not be read or written; notes name notebook
    findings left as they are."""
    by_path: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for finding in findings:
        if finding.code != "MG000":  # a file Python cannot read has no line to mark
            key = finding.path if finding.cell is None else (finding.path, finding.cell)
            by_path[key][finding.line].add(finding.code)
    added = edited = 0
    problems: list[str] = []
    notes: list[str] = []
    for key, lines in by_path.items():
        if isinstance(key, tuple):
            notes.append(f"{key[0]}: --add-noqa does not edit notebooks; add `# noqa: CODE` "
                         f"to the lines in cell {key[1]} by hand")
            continue
        count, problem = _mark_file(key, lines)
        added += count
        edited += count > 0
        problems += problem
    return added, edited, problems, notes


def _mark_file(path: str, wanted: dict[int, set[str]]) -> tuple[int, list[str]]:
    from mirrorguard.fixer.files import atomic_write, encode

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return 0, [f"{path}: cannot read: {exc.strerror or exc}"]
    decoded = sources.decode(data)
    if isinstance(decoded, sources.Unreadable):
        return 0, [f"{path}: cannot add noqa comments: {decoded.reason}"]
    lines = _LINES.findall(decoded.text)
    blocked = _lines_without_room(decoded.text)
    problems = []
    count = 0
    for number, codes in sorted(wanted.items()):
        if not 1 <= number <= len(lines):
            continue
        if number in blocked:
            problems.append(f"{path}:{number}: cannot add `# noqa` here (the line ends inside a string "
                            "or with a backslash); add it by hand")
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        lines[number - 1] = _with_codes(body, codes) + ending
        count += 1
    if not count:
        return 0, problems
    try:
        atomic_write(path, encode("".join(lines), decoded))
    except OSError as exc:
        return 0, problems + [f"{path}: cannot write: {exc.strerror or exc}"]
    return count, problems


def _with_codes(body: str, codes: set[str]) -> str:
    match = _NOQA_CODES.search(body)
    if match is None:
        return f"{body.rstrip()}  # noqa: {', '.join(sorted(codes))}"
    existing = re.split(r"[,\s]+", (match.group("codes") or "").strip())
    merged = sorted({code for code in existing if code} | codes)
    rest = body[match.end():].lstrip(", ")
    return body[: match.start()] + f"# noqa: {', '.join(merged)}" + (" " + rest if rest else "")


def _lines_without_room(text: str) -> set[int]:
    """Lines a comment cannot end: inside a multi-line token, or continued with a backslash."""
    blocked = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] != token.end[0] and token.type != tokenize.NL:
                blocked.update(range(token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    for number, line in enumerate(_LINES.findall(text), start=1):
        if line.rstrip("\r\n").endswith("\\"):
            blocked.add(number)
    return blocked
