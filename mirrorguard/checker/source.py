"""From bytes on disk to text the analysis can trust, or a reason it can't.

Decoding follows PEP 263 (BOM, then a coding cookie, else UTF-8) so a latin-1
file with its cookie reads as Python reads it. Whether CPython accepts the file
is asked of CPython itself (``compile``), so MG000 means exactly "Python would
refuse to run this".
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass


@dataclass(frozen=True)
class Unreadable:
    """Why a file cannot be analysed, and where (1-based line and column)."""

    reason: str
    line: int = 1
    column: int = 1


@dataclass(frozen=True)
class DecodedSource:
    text: str
    encoding: str
    bom: bool
    # Read leniently (:func:`decode_leniently`): why the declared encoding failed.
    fallback: Unreadable | None = None


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def decode(data: bytes) -> DecodedSource | Unreadable:
    """Decode Python source bytes the way the interpreter does."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # unknown or conflicting coding cookie
        return Unreadable(f"cannot decode: {exc}", getattr(exc, "lineno", None) or 1)
    bom = encoding == "utf-8-sig"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        declared = any(_COOKIE.match(first) for first in data.split(b"\n", 2)[:2])
        hint = (f"the file declares {encoding}: save it as {encoding}, or declare the encoding it is saved in"
                if declared else "declare the encoding with a `# -*- coding: ... -*-` line or save as UTF-8")
        return Unreadable(
            f"cannot decode as {encoding}: byte 0x{data[exc.start]:02x} is not valid ({hint})",
            line,
            column,
        )
    except LookupError:
        return Unreadable(f"cannot decode: unknown encoding {encoding!r}")
    return DecodedSource(text, "utf-8" if bom else encoding, bom)


def decode_leniently(data: bytes) -> DecodedSource:
    """As flake8 reads a file: PEP 263, and where that fails, latin-1 (every byte
    is a character), so ``check`` judges the same text the flake8 plugin is given.
    ``fallback`` says why the declared encoding failed."""
    decoded = decode(data)
    if not isinstance(decoded, Unreadable):
        return decoded
    text = data.decode("latin-1")
    if text.startswith("\xef\xbb\xbf"):  # a UTF-8 BOM read as latin-1: flake8 drops it too
        text = text[3:]
    return DecodedSource(text, "latin-1", False, fallback=decoded)


def read_file(path: str, *, leniently: bool = False) -> DecodedSource | Unreadable:
    """The file's text as Python reads it (with ``leniently``, as flake8 and
    ``mirrorguard check`` read it: :func:`decode_leniently`); Unreadable if it cannot be."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return Unreadable(f"cannot read: {exc.strerror or exc}")
    return decode_leniently(data) if leniently else decode(data)


def cpython_rejects(text: str, filename: str) -> Unreadable | None:
    """Compile ``text`` with this interpreter; say why it refuses, if it does."""
    return parse(text, filename, keep_tree=False)[1]


def syntax_rejects(text: str, filename: str) -> Unreadable | None:
    """Why ``text`` does not parse, as flake8 judges it (E999: ``ast.parse`` fails), or None.

    Errors CPython finds only after parsing (``return`` outside a function) do
    not count: flake8 runs its plugins on such a file, so ``check`` does too.
    """
    rejected = cpython_rejects(text, filename)  # the fast path: compiling builds no Python objects
    if rejected is None or "\0" in text:
        return rejected
    return parse(text, filename, flake8=True)[1]


def parse(text: str, filename: str, *, keep_tree: bool = True,
          flake8: bool = False) -> tuple[ast.Module | None, Unreadable | None]:
    """``text``'s ``ast`` if this interpreter compiles it, else why it refuses.

    The tree is parsed once and then compiled from the tree, so errors CPython
    only finds after parsing (``return`` outside a function) count too; with
    ``flake8``, only parsing counts, as flake8 judges a file.
    """
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        return None, Unreadable("source code contains a NUL byte", line)
    try:
        with warnings.catch_warnings():
            # Invalid escape sequences and the like are the user's other linters' business.
            warnings.simplefilter("ignore")
            if not keep_tree:
                compile(text, filename, "exec", dont_inherit=True)
                return None, None
            tree = compile(text, filename, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
            if not flake8:
                compile(tree, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        message = exc.msg or "invalid syntax"
        return None, Unreadable(f"syntax error: {message}", exc.lineno or 1, max(exc.offset or 1, 1))
    except (ValueError, MemoryError, RecursionError, OverflowError) as exc:
        return None, Unreadable(f"Python cannot compile this file: {exc or type(exc).__name__}")
    return tree, None


# ``# noqa`` and ``# noqa: MG101,MG2``, exactly as flake8 spells and reads them,
# so both front ends suppress the same findings.
_NOQA = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
# flake8 skips a file with a line that starts with this, whatever follows (`# flake8: noqa: E501` too).
_NOQA_FILE = re.compile(r"^[ \t\f\v]*# flake8[:=][ \t\f\v]*noqa", re.IGNORECASE | re.MULTILINE)


def file_is_noqa(text: str) -> bool:
    """A line starting ``# flake8: noqa``: flake8 skips the whole file."""
    return _NOQA_WORD.search(text) is not None and _NOQA_FILE.search(text) is not None


def noqa_codes(line_text: str) -> frozenset[str] | None:
    """None: no noqa on the line; empty set: a bare ``# noqa``; else the codes (prefixes).

    The word ``noqa`` may be in any case, the codes are compared as written
    (``# noqa: mg101`` silences nothing), exactly as flake8 does.
    """
    match = _NOQA.search(line_text)
    if match is None:
        return None
    codes = match.group("codes")
    if not codes:
        return frozenset()
    return frozenset(code for code in re.split(r"[,\s]+", codes.strip()) if code)


def suppressed(code: str, noqa: frozenset[str] | None) -> bool:
    if noqa is None:
        return False
    return not noqa or any(code.startswith(prefix) for prefix in noqa)


_NOQA_WORD = re.compile("noqa", re.IGNORECASE)
_MG_NOQA = re.compile(r"#\s*noqa:[^\n]*?\bmg[0-9]", re.IGNORECASE)


def names_mg_noqa(text: str) -> bool:
    """Whether a ``# noqa: ...`` in ``text`` may name an MG code: the cheap test before MG001
    (unused noqa) is worked out, so files without one never import the rules for it."""
    # `in` on the lower-cased text finds the word as the case-blind pattern does, three times
    # faster: the plugin asks this of every file flake8 checks.
    return "noqa" in text.lower() and _MG_NOQA.search(text) is not None


def noqa_comment_codes(text: str) -> list[tuple[int, str]]:
    """(1-based line, code) for every code named in a ``# noqa: CODES`` comment
    of ``text``, as written, as :func:`noqa_codes` reads them: what a run
    validates, so that a noqa naming a code no rule has is an error, not a
    no-op. Only real comments count: a docstring quoting one is left alone."""
    if _NOQA_WORD.search(text) is None:
        return []
    candidates = {}
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        codes = noqa_codes(line) if "#" in line else None
        if codes:
            candidates[number] = codes
    if not candidates:
        return []
    comments = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and noqa_codes(token.string):
                comments.add(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        return []  # MG000's business
    return [(number, code) for number, codes in sorted(candidates.items()) if number in comments
            for code in sorted(codes)]
