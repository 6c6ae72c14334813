"""Which files a run checks: the paths given, recursing into folders."""

from __future__ import annotations

import fnmatch
import os
from typing import Iterable, Iterator

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


def _excluded(path: str, patterns: Iterable[str], root: str | None = None) -> bool:
    """Whether a pattern matches the path, one of its folder names, or (with
    ``root``, the configuration's folder) the path relative to ``root``."""
    if root is not None:
        relative = os.path.relpath(os.path.abspath(path), root)
        if not relative.startswith(".." + os.sep) and _excluded(relative, patterns):
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
             suffixes: tuple[str, ...] = SOURCE_SUFFIXES, root: str | None = None) -> Iterator[str]:
    """Yield the files to check, each once, folders walked in sorted order.

    A file named on the command line is checked whatever its suffix; inside
    folders only files ending in ``suffixes`` are. ``exclude`` globs also match
    paths relative to ``root`` (the configuration file's folder).
    Raises FileNotFoundError for a path that does not exist.
    """
    exclude = tuple(exclude)
    seen: set[str] = set()
    for path in paths:
        if os.path.isdir(path):
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(
                    d for d in dirnames
                    if not _skip_dir(dirpath, d) and not _excluded(os.path.join(dirpath, d), exclude, root)
                )
                for filename in sorted(filenames):
                    full = os.path.join(dirpath, filename)
                    if filename.endswith(suffixes) and not _excluded(full, exclude, root) and full not in seen:
                        seen.add(full)
                        yield full
        elif os.path.exists(path):
            if path not in seen and not _excluded(path, exclude, root):
                seen.add(path)
                yield path
        else:
            raise FileNotFoundError(path)
