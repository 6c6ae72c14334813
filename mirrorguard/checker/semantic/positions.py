"""Where an ``ast`` node is, in the units editors and flake8 use.

``ast`` counts columns in UTF-8 bytes; editors, libcst and ``path:line:col``
output count characters. Lines that are pure ASCII (nearly all) need no
conversion.
"""

from __future__ import annotations

import ast
import re

# Line breaks as the tokenizer counts them; str.splitlines would also split at
# form feeds and other separators.
LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Positions:
    def __init__(self, text: str) -> None:
        self.lines = LINE_BREAK.split(text)

    def line(self, number: int) -> str:
        """The text of 1-based line ``number`` ('' past the end)."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def column(self, line: int, byte_offset: int) -> int:
        """The 0-based character column of a UTF-8 byte offset on a line."""
        text = self.line(line)
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int, int, int]:
        """(line, column, end line, end column): lines 1-based, columns 0-based characters."""
        line, end_line = node.lineno, node.end_lineno or node.lineno
        column = self.column(line, node.col_offset)
        end_column = self.column(end_line, node.end_col_offset if node.end_col_offset is not None else 0)
        return line, column, end_line, end_column

    def source(self, node: ast.AST) -> str:
        """The text of ``node`` exactly as written."""
        line, column, end_line, end_column = self.span(node)
        if line == end_line:
            return self.line(line)[column:end_column]
        parts = [self.line(line)[column:]]
        parts += [self.line(n) for n in range(line + 1, end_line)]
        parts.append(self.line(end_line)[:end_column])
        return "\n".join(parts)
