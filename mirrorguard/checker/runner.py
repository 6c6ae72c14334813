"""A whole run: many files, several processes, and helpers imported across files.

The data flow of one run, top to bottom:

1. every file is checked on its own (:func:`check_path`), in worker processes
   when there are enough files; a file that may have a strategy in play also
   reports the modules it imports (a cheap ``ast`` walk, no second libcst parse);
2. those imports are resolved to files of the checked tree (:func:`resolve_module`);
3. each such module is parsed once and summarised (``analysis.summarise``: what
   its functions and model classes do outside a scope of their own);
4. only the files that import a summarised helper are checked again, with the
   summaries passed as ``Settings.external``, so ``build_model()`` imported
   from ``models.py`` is judged at its call site in ``train.py``.

Results come back in the order the files were given, whatever the number of
processes.
"""

from __future__ import annotations

import ast
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from mirrorguard.checker import source as sources
from mirrorguard.checker.core import Settings, check_source
from mirrorguard.checker.files import SKIPPED_DIRS
from mirrorguard.checker.findings import Finding
from mirrorguard.checker.notebooks import NOTEBOOK_SUFFIX, check_notebook_source, notebook_text
from mirrorguard.checker.rules import UNREADABLE

# Below this many files a pool costs more than it saves.
MIN_FILES_FOR_POOL = 8


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    imports: tuple[str, ...] = ()  # only for files that may have a strategy in play
    error: str | None = None  # an internal error (a bug): reported, the run goes on


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


# -- one file ---------------------------------------------------------------

def check_path(path: str, settings: Settings, want_imports: bool = False) -> FileResult:
    """Check one file (a Python file or a notebook); never raises."""
    try:
        if path.endswith(NOTEBOOK_SUFFIX):
            return _check_notebook(path, settings, want_imports)
        decoded = sources.read_file(path)
        if isinstance(decoded, sources.Unreadable):
            return FileResult(path, _unreadable(path, decoded, settings))
        findings = check_source(decoded.text, path, settings)
        imports: tuple[str, ...] = ()
        if want_imports and settings.may_have_strategy(decoded.text) and not _rejected(findings):
            imports = imported_names(decoded.text)
        return FileResult(path, findings, imports)
    except Exception as exc:  # a bug in the checker must not end the run
        return FileResult(path, error=f"internal error: {type(exc).__name__}: {exc}")


def _check_notebook(path: str, settings: Settings, want_imports: bool) -> FileResult:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        why = sources.Unreadable(f"cannot read: {exc.strerror or exc}")
        return FileResult(path, _unreadable(path, why, settings))
    findings = check_notebook_source(data, path, settings)
    imports: tuple[str, ...] = ()
    if want_imports:
        text = notebook_text(data)
        if text is not None and settings.may_have_strategy(text):
            imports = imported_names(text)
    return FileResult(path, findings, imports)


def _rejected(findings: list[Finding]) -> bool:
    return any(f.code == UNREADABLE.code and f.cell is None for f in findings)


def _unreadable(path: str, why: sources.Unreadable, settings: Settings) -> list[Finding]:
    if not settings.enabled(UNREADABLE.code):
        return []
    return [Finding(path, why.line, why.column, UNREADABLE.code, UNREADABLE.name, why.reason)]


def imported_names(text: str) -> tuple[str, ...]:
    """Modules a file imports, spelled as ``analysis.imported_modules`` spells them.

    ``import trainer.models`` -> trainer.models; ``from models import build``
    -> models, models.build; ``from .nets import make`` -> .nets, .nets.make;
    ``from . import nets`` -> ., .nets. Imports anywhere in the file count.
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.add(base)
            for alias in node.names:
                if alias.name != "*":
                    found.add(base + alias.name if base.endswith(".") else f"{base}.{alias.name}")
    return tuple(sorted(found))


# -- cross-file -------------------------------------------------------------

def resolve_module(name: str, importer: str, root: str | None) -> str | None:
    """The file of the checked tree that ``importer``'s import of ``name`` reaches, if any.

    Relative names go up from the importer's package; absolute names are looked
    for next to the importer (``python train.py`` puts its folder on sys.path)
    and then in each folder above it up to ``root``.
    """
    importer_dir = os.path.dirname(os.path.abspath(importer))
    if name.startswith("."):
        level = len(name) - len(name.lstrip("."))
        parts = [p for p in name[level:].split(".") if p]
        base = importer_dir
        for _ in range(level - 1):
            base = os.path.dirname(base)
        bases = [base]
    else:
        parts = name.split(".")
        bases = [importer_dir]
        if root is not None and _inside(importer_dir, root):
            folder = importer_dir
            while folder != root:
                folder = os.path.dirname(folder)
                bases.append(folder)
    for base in bases:
        if root is not None and not _inside(base, root):
            continue
        stem = os.path.join(base, *parts)
        for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
            if os.path.isfile(candidate) and not _in_skipped_dir(candidate, base):
                if os.path.abspath(candidate) != os.path.abspath(importer):
                    return candidate
    return None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _in_skipped_dir(path: str, base: str) -> bool:
    relative = os.path.relpath(os.path.dirname(path), base)
    return any(part in SKIPPED_DIRS for part in relative.split(os.sep) if part != ".")


def summarise_path(path: str) -> dict[str, frozenset[str]]:
    """What ``path``'s module-level functions and model classes do outside a scope; {} if unreadable."""
    import libcst as cst

    from mirrorguard.checker.analysis import summarise

    decoded = sources.read_file(path)
    if isinstance(decoded, sources.Unreadable):
        return {}
    try:
        return summarise(cst.parse_module(decoded.text))
    except Exception:  # unparsable, too deep, or a checker bug: no summary, no crash
        return {}


def external_for(imports: Iterable[str], importer: str, root: str | None,
                 summaries: Callable[[str], dict[str, frozenset[str]]],
                 resolved: Callable[[str, str], str | None]) -> dict[str, frozenset[str]]:
    """``{"models.build_model": {...}}``: the importer's view of the helpers it imports."""
    external: dict[str, frozenset[str]] = {}
    for name in imports:
        target = resolved(name, importer)
        if target is None:
            continue
        for function, kinds in summaries(target).items():
            key = name + function if name.endswith(".") else f"{name}.{function}"
            external[key] = kinds
    return external


# -- a run ------------------------------------------------------------------

def _work(chunk: list[tuple[int, str, Settings, bool]]) -> list[tuple[int, FileResult]]:
    return [(index, check_path(path, settings, want)) for index, path, settings, want in chunk]


def _summarise_chunk(paths: list[str]) -> list[dict[str, frozenset[str]]]:
    return [summarise_path(path) for path in paths]


class Runner:
    """Runs checks over a list of files with up to ``jobs`` processes."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def _map(self, function, items: list) -> list:
        """``function`` over chunks of ``items``, results in the items' order."""
        if self.jobs == 1 or len(items) < MIN_FILES_FOR_POOL:
            return function(items)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=_context())
        # Interleaved chunks, several per process: big and small files spread out
        # and a slow file does not hold up a whole stretch of the tree.
        count = min(len(items), self.jobs * 4)
        chunks = [items[i::count] for i in range(count)]
        results: list = [None] * len(items)
        for i, chunk_result in enumerate(self._pool.map(function, chunks)):
            for j, value in enumerate(chunk_result):
                results[i + j * count] = value
        return results

    def check(self, files: Sequence[str], settings_for: Callable[[str], Settings],
              cross_file: bool = True, root: str | None = None) -> list[FileResult]:
        want = cross_file and len(files) > 0
        items = [(index, path, settings_for(path), want) for index, path in enumerate(files)]
        results = [result for _, result in self._map(_work, items)]
        if cross_file:
            self._cross_file(results, settings_for, root)
        return results

    def _cross_file(self, results: list[FileResult], settings_for, root: str | None) -> None:
        root = os.path.abspath(root) if root else None
        resolutions: dict[tuple[str, str], str | None] = {}

        def resolved(name: str, importer: str) -> str | None:
            key = (name, os.path.dirname(importer))
            if key not in resolutions:
                resolutions[key] = resolve_module(name, importer, root)
            return resolutions[key]

        wanted: dict[int, list[str]] = {}
        for index, result in enumerate(results):
            targets = [t for t in (resolved(n, result.path) for n in result.imports) if t is not None]
            if targets:
                wanted[index] = targets
        if not wanted:
            return
        modules = sorted({os.path.abspath(t) for targets in wanted.values() for t in targets})
        parsed = dict(zip(modules, self._map(_summarise_chunk, modules)))
        recheck = []
        for index in wanted:
            result = results[index]
            external = external_for(result.imports, result.path, root,
                                    lambda path: parsed[os.path.abspath(path)], resolved)
            if external:
                settings = replace(settings_for(result.path), external=external)
                recheck.append((index, result.path, settings, False))
        for index, result in self._map(_work, recheck):
            results[index] = result


def _context():
    import multiprocessing

    # fork: workers start at once with libcst already imported; elsewhere the
    # platform default (spawn) re-imports it in each worker.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()
