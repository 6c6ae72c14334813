"""Line-level rewriting of source text.

The fixer never regenerates code from a tree: it removes, inserts and indents
whole lines of the original text, so every byte outside the moved lines stays as
it was (comments, blank lines, quoting, CRLF). Lines that begin inside a
multi-line string are never indented: that would change the string.

Each output line remembers the input line it came from (``None`` for a line the
fixer wrote), which is how a notebook's cells are put back together.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from typing import Iterable, Sequence, Union

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_NEWLINE = re.compile(r"(\r\n|\r|\n)$")

# One entry of a new line order: an input line kept as it is (its index), an
# input line indented by some whitespace, or a new line.
Keep = int


@dataclass(frozen=True)
class Indent:
    index: int
    delta: str


@dataclass(frozen=True)
class New:
    text: str  # without its line break


Entry = Union[Keep, Indent, New]


def split_lines(text: str) -> list[str]:
    """Lines with their line breaks, split where the tokenizer splits (not at form feeds)."""
    return _LINE.findall(text)


def newline_of(line: str, default: str = "\n") -> str:
    match = _NEWLINE.search(line)
    return match.group(1) if match else default


def string_interiors(text: str) -> set[int]:
    """0-based indexes of lines that begin inside a multi-line string literal."""
    inside: set[int] = set()
    kinds = {tokenize.STRING}
    if hasattr(tokenize, "FSTRING_MIDDLE"):  # Python 3.12+
        kinds.add(tokenize.FSTRING_MIDDLE)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in kinds and token.end[0] > token.start[0]:
                inside.update(range(token.start[0], token.end[0]))  # rows start+1..end, 0-based
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    if hasattr(tokenize, "FSTRING_MIDDLE"):
        # An f-string's pieces: mark every line strictly inside FSTRING_START..END.
        try:
            start_row = None
            for token in tokenize.generate_tokens(io.StringIO(text).readline):
                if token.type == tokenize.FSTRING_START:
                    start_row = token.start[0] if start_row is None else start_row
                elif token.type == tokenize.FSTRING_END and start_row is not None:
                    inside.update(range(start_row, token.end[0]))
                    start_row = None
        except (tokenize.TokenError, SyntaxError, IndentationError):
            pass
    return inside


def is_blank(line: str) -> bool:
    return not line.strip()


class Lines:
    """A source text as lines, and the rewrites the fixer makes of it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = split_lines(text)
        self.final_newline = text.endswith(("\n", "\r"))
        if self.lines and not self.final_newline:
            # Give the last line a break so it can be moved; taken off again in render().
            self.lines[-1] += newline_of(self.lines[0] if len(self.lines) > 1 else "", "\n")
        self.in_string = string_interiors(text)

    def __len__(self) -> int:
        return len(self.lines)

    def newline(self, index: int) -> str:
        if 0 <= index < len(self.lines):
            return newline_of(self.lines[index])
        return newline_of(self.lines[-1]) if self.lines else "\n"

    def indentation(self, index: int) -> str:
        line = self.lines[index]
        return line[: len(line) - len(line.lstrip(" \t\f"))]

    def render(self, order: Iterable[Entry]) -> tuple[str, list[int | None]]:
        """The text for a new line order, and each output line's input line."""
        out: list[str] = []
        origins: list[int | None] = []
        for entry in order:
            if isinstance(entry, int):
                out.append(self.lines[entry])
                origins.append(entry)
            elif isinstance(entry, Indent):
                line = self.lines[entry.index]
                if not is_blank(line) and entry.index not in self.in_string:
                    line = entry.delta + line
                out.append(line)
                origins.append(entry.index)
            else:
                nl = self.newline(len(self.lines) - 1) if not out else newline_of(out[-1], self.newline(0))
                out.append(entry.text + nl)
                origins.append(None)
        text = "".join(out)
        if not self.final_newline and text:
            text = _NEWLINE.sub("", text)
        return text, origins

    # --- the three rewrites ----------------------------------------------------

    def move(self, first: int, end: int, to: int, delta: str, drop: Iterable[int] = (),
             header: str | None = None) -> tuple[str, list[int | None]]:
        """Move lines ``first..end-1`` to before line ``to`` (``len`` for the end), indented.

        ``header``, when given, is written just before the moved lines (a new
        ``with`` statement). ``drop`` lists blank lines to leave out.
        """
        return self.move_runs([(first, end)], to, delta, drop, header)

    def move_runs(self, runs: Sequence[tuple[int, int]], to: int, delta: str, drop: Iterable[int] = (),
                  header: str | None = None) -> tuple[str, list[int | None]]:
        """Move several runs of lines (``(first, end)``, in order, none spanning ``to``) to
        before line ``to``, one after the other in their order, indented."""
        assert not any(first < to < end for first, end in runs)
        dropped = set(drop)
        taken = {index for first, end in runs for index in range(first, end)}
        order: list[Entry] = []
        moved: list[Entry] = ([New(header)] if header is not None else [])
        moved += [Indent(i, delta) for first, end in runs for i in range(first, end)]
        for index in range(len(self.lines)):
            if index == to:
                order += moved
            if index in taken or index in dropped:
                continue
            order.append(index)
        if to >= len(self.lines):
            order += moved
        return self.render(order)

    def wrap(self, first: int, end: int, header: str, delta: str) -> tuple[str, list[int | None]]:
        """Write ``header`` before line ``first`` and indent lines ``first..end-1`` under it."""
        order: list[Entry] = []
        for index in range(len(self.lines)):
            if index == first:
                order.append(New(header))
            order.append(Indent(index, delta) if first <= index < end else index)
        return self.render(order)
