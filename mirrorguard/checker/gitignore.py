"""``.gitignore`` as git reads it, with ``pathspec`` doing the pattern matching.

Inside a git repository, every ``.gitignore`` from the repository's root down
to a path's folder applies, each relative to its own folder, the deepest one
with a matching pattern deciding (so a nested ``!keep.py`` re-includes), and
``.git/info/exclude`` applies from the root. Outside a repository git ignores
``.gitignore`` files, and so does this.
"""

from __future__ import annotations

import os


class GitIgnore:
    """Answers "does git ignore this path?", reading each ignore file once."""

    def __init__(self) -> None:
        self._specs: dict[str, object | None] = {}
        self._chains: dict[str, tuple[str, ...]] = {}

    def ignored(self, path: str, is_dir: bool = False) -> bool:
        absolute = os.path.abspath(path)
        for base in self._chain(os.path.dirname(absolute)):
            spec = self._spec(base)
            if spec is None:
                continue
            relative = os.path.relpath(absolute, base).replace(os.sep, "/")
            result = spec.check_file(relative + "/" if is_dir else relative)
            if result.include is not None:
                return bool(result.include)
        return False

    def _chain(self, folder: str) -> tuple[str, ...]:
        """The folders whose ignore files apply in ``folder``, deepest first; () outside a repository."""
        chain = self._chains.get(folder)
        if chain is None:
            if os.path.exists(os.path.join(folder, ".git")):
                chain = (folder,)
            else:
                parent = os.path.dirname(folder)
                above = () if parent == folder else self._chain(parent)
                chain = (folder, *above) if above else ()
            self._chains[folder] = chain
        return chain

    def _spec(self, folder: str):
        if folder not in self._specs:
            lines: list[str] = []
            sources = [os.path.join(folder, ".gitignore")]
            if os.path.isdir(os.path.join(folder, ".git")):
                sources.insert(0, os.path.join(folder, ".git", "info", "exclude"))
            for source in sources:
                try:
                    with open(source, encoding="utf-8", errors="replace") as handle:
                        lines += handle.read().splitlines()
                except OSError:
                    continue
            if lines:
                from pathspec import GitIgnoreSpec

                self._specs[folder] = GitIgnoreSpec.from_lines(lines)
            else:
                self._specs[folder] = None
        return self._specs[folder]
