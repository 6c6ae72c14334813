"""Which files a run checks: the paths given, recursing into folders."""

from __future__ import annotations

import fnmatch
import os
from typing import Callable, Iterable, Iterator

# Folders no one wants checked: VCS data, virtual environments, build output, caches.
SKIPPED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".bzr",
        ".venv", "venv", ".env", "env", ".tox", ".nox", ".eggs",
        "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis",
        ".ipynb_checkpoints", "node_modules", "site-packages", "build", "dist",
    }
)
# Notebooks are checked by default: most TensorFlow tutorials are notebooks.
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")
STDIN = "-"


def matches(path: str, patterns: Iterable[str], root: str | None = None) -> bool:
    """Whether a glob matches the path, one of its folder names, or (with
    ``root``, the configuration's folder) the path relative to ``root``."""
    if root is not None:
        relative = os.path.relpath(os.path.abspath(path), root)
        if not relative.startswith(".." + os.sep) and matches(relative, patterns):
            return True
    normal = path.replace(os.sep, "/")
    parts = normal.split("/")
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatch(normal, pattern) or any(fnmatch.fnmatch(part, pattern) for part in parts):
            return True
        if fnmatch.fnmatch(normal, "*/" + pattern) or fnmatch.fnmatch(normal, pattern + "/*"):
            return True
    return False


def _skip_dir(dirpath: str, name: str) -> bool:
    if name in SKIPPED_DIRS or name.endswith(".egg-info"):
        return True
    # A virtual environment under any name.
    return os.path.exists(os.path.join(dirpath, name, "pyvenv.cfg"))


def discover(paths: Iterable[str], exclude: Iterable[str] = (),
             suffixes: tuple[str, ...] = SOURCE_SUFFIXES, root: str | None = None, *,
             excluded: Callable[[str], bool] | None = None, gitignore=None) -> Iterator[str]:
    """Yield the files to check, each once, folders walked in sorted order.

    A file named on the command line is checked whatever its suffix (and even
    if git ignores it); inside folders only files ending in ``suffixes`` are,
    and, with ``gitignore`` (a :class:`~mirrorguard.checker.gitignore.GitIgnore`),
    only those git does not ignore. ``excluded`` (a path -> bool) decides what
    the ``exclude`` globs skip; without it, ``exclude`` globs also match paths
    relative to ``root`` (the configuration file's folder). Paths are yielded
    relative to the current folder when inside it, without a ``./``.
    Raises FileNotFoundError for a path that does not exist.
    """
    if excluded is None:
        patterns = tuple(exclude)
        excluded = lambda path: bool(patterns) and matches(path, patterns, root)  # noqa: E731
    seen: set[str] = set()
    for path in paths:
        if os.path.isdir(path):
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(
                    d for d in dirnames
                    if not _skip_dir(dirpath, d)
                    and not excluded(os.path.join(dirpath, d))
                    and not (gitignore is not None and gitignore.ignored(os.path.join(dirpath, d), True))
                )
                for filename in sorted(filenames):
                    full = os.path.join(dirpath, filename)
                    if not filename.endswith(suffixes) or excluded(full):
                        continue
                    if gitignore is not None and gitignore.ignored(full):
                        continue
                    shown = display_path(full)
                    if shown not in seen:
                        seen.add(shown)
                        yield shown
        elif os.path.exists(path) or os.path.islink(path):
            shown = display_path(path)
            if shown not in seen and not excluded(path):
                seen.add(shown)
                yield shown
        else:
            raise FileNotFoundError(path)


def display_path(path: str, base: str | None = None) -> str:
    """``path`` relative to ``base`` (the current folder) when inside it, with no
    ``./``; its absolute form otherwise. As ruff shows paths."""
    if path == STDIN:
        return path
    base = os.path.abspath(base or os.getcwd())
    absolute = os.path.abspath(path)
    if absolute == base:
        return "."
    if absolute.startswith(base.rstrip(os.sep) + os.sep):
        return os.path.relpath(absolute, base)
    return absolute
