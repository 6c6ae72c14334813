"""flake8 adapter for mirrorguard: ``flake8 --select MG``.

Thin on purpose: flake8 hands over the file's lines, the shared checker does
the work, so flake8 and ``mirrorguard check`` report the same findings at the
same places. flake8 applies ``# noqa`` itself.
"""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard import __version__
from mirrorguard.checker.core import Settings, check_source

_SETTINGS = Settings(respect_noqa=False)


class Plugin:
    name = "mirrorguard"
    version = __version__

    # flake8 chooses the plugin type from these parameter names: ``tree`` must
    # be there even though the checker reads the text, not the ast.
    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        for finding in check_source(text, self.filename, _SETTINGS, compiled=True):
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)
