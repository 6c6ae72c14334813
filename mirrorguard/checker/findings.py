"""The one record every part of the checker hands on: a finding."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Finding:
    """One problem at one place.

    ``line`` is 1-based and ``column`` 1-based, as editors and ``path:line:col``
    output show them (flake8 plugins yield 0-based columns; the adapter converts).
    """

    path: str
    line: int
    column: int
    code: str
    name: str = field(compare=False)
    message: str = field(compare=False)
    # Notebooks: the 1-based code-cell number; ``line`` then counts within the cell.
    cell: int | None = field(default=None, compare=False)
    # Where the flagged code ends (1-based line, 1-based column one past its last
    # character), when known: SARIF regions and editors underline the whole span.
    end_line: int | None = field(default=None, compare=False)
    end_column: int | None = field(default=None, compare=False)
    # False where the rule's fix does not apply to this finding (see rules.base.Report).
    fixable: bool = field(default=True, compare=False)

    def as_dict(self) -> dict:
        data = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "name": self.name,
            "message": self.message,
        }
        if self.end_line is not None:
            data["end_line"] = self.end_line
            data["end_column"] = self.end_column
        if self.cell is not None:
            data["cell"] = self.cell
        return data
