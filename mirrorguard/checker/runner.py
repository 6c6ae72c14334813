"""A whole run: many files, several processes, and helpers imported across files.

The data flow of one run, top to bottom:

1. every file is checked on its own (:func:`check_path`), in worker processes
   when there are enough files; a file that may have a strategy in play also
   reports the modules it calls into (recorded by the analysis walk itself);
2. those imports are resolved to files of the checked tree (:func:`resolve_module`);
3. each such module is parsed once and summarised (``core.summarise_source``: what
   its functions and model classes do outside a scope of their own);
4. only the files that import a summarised helper are checked again, with the
   summaries passed as ``Settings.external``, so ``build_model()`` imported
   from ``models.py`` is judged at its call site in ``train.py``.

Results come back in the order the files were given, whatever the number of
processes.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Mapping, Sequence

from mirrorguard.checker import source as sources
from mirrorguard.checker.core import RuleFailed, Settings, check_source_and_imports, unreadable_findings
from mirrorguard.checker.files import SKIPPED_DIRS
from mirrorguard.checker.findings import Finding

# notebooks.NOTEBOOK_SUFFIX, spelt here so that a run over plain files never imports the notebook reader.
NOTEBOOK_SUFFIX = ".ipynb"

# Below this many files a pool costs more than it saves.
MIN_FILES_FOR_POOL = 8


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    # Modules this file may call helpers of, each with those helpers' names
    # (only for files that put a strategy in play).
    imports: tuple[tuple[str, tuple[str, ...]], ...] = ()
    error: str | None = None  # an internal error (a bug): reported, the run goes on
    # The settings the findings came from when they differ from the file's own:
    # cross-file summaries of imported helpers (``fix`` needs them to fix those).
    settings: Settings | None = None
    # Something the user should know that is no finding (bytes read as latin-1, as flake8 reads them).
    warning: str | None = None


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


# -- one file ---------------------------------------------------------------

def check_path(path: str, settings: Settings, want_imports: bool = False,
               data: bytes | None = None) -> FileResult:
    """Check one file (a Python file or a notebook), or ``data`` as that file's
    content (standard input); never raises."""
    try:
        if path.endswith(NOTEBOOK_SUFFIX):
            return _check_notebook(path, settings, want_imports, data)
        if data is not None:
            decoded = sources.decode_leniently(data)
        else:
            decoded = sources.read_file(path, leniently=True)  # as flake8 reads it
        if isinstance(decoded, sources.Unreadable):
            return FileResult(path, unreadable_findings(path, decoded, settings))
        findings, imports = check_source_and_imports(decoded.text, path, settings)
        if sources.names_mg_noqa(decoded.text):
            from mirrorguard.checker.rules.mg001_unused_noqa import with_unused_noqa

            findings = with_unused_noqa(decoded.text, path, settings, findings)
        result = FileResult(path, findings, imports if want_imports else ())
        if decoded.fallback is not None:
            why = decoded.fallback
            result.warning = (f"{path}:{why.line}:{why.column}: {why.reason}; "
                              "checked as latin-1 text, as flake8 reads it")
        return result
    except RuleFailed as exc:  # a rule's bug: the other rules' findings still count
        return FileResult(path, exc.findings, exc.imports if want_imports else (), error=str(exc))
    except Exception as exc:  # a bug in the checker must not end the run
        return FileResult(path, error=f"internal error: {type(exc).__name__}: {exc}")


def _check_notebook(path: str, settings: Settings, want_imports: bool, data: bytes | None) -> FileResult:
    try:
        if data is None:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        why = sources.Unreadable(f"cannot read: {exc.strerror or exc}")
        return FileResult(path, unreadable_findings(path, why, settings))
    from mirrorguard.checker.notebooks import check_notebook_source_and_imports

    findings, imports = check_notebook_source_and_imports(data, path, settings)
    return FileResult(path, findings, imports if want_imports else ())


# -- cross-file -------------------------------------------------------------

def resolve_module(name: str, importer: str, root: str | None) -> str | None:
    """The file of the checked tree that ``importer``'s import of ``name`` reaches, if any.

    Relative names go up from the importer's package. Absolute names are
    looked for where Python would find them: next to a script (a folder with
    no ``__init__.py`` is on sys.path when its script runs), above the
    importer's top-level package (as pytest's rootdir insertion does), and in
    ``root`` and ``root/src``. Folders in between are not on sys.path, so
    ``import tensorflow`` in ``pkg/backend/trainer.py`` is not ``pkg/backend/tensorflow``.
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
        top = importer_dir
        while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
            top = os.path.dirname(top)
        bases = [top]
        if root is not None:
            bases += [root, os.path.join(root, "src")]
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


# What a summary can hold (rule codes of MG101-MG104)
# is always spelled with one of these; a module without any has nothing to
# summarise and is never parsed. Kept loose on purpose: it only saves parses.
_MAY_SUMMARISE = re.compile(
    r"Sequential|Model|applications|load_model|clone_model|model_from|from_config|from_pretrained"
    r"|\.compile\(|optimizer|metrics|mixed_precision"
)


@functools.lru_cache(maxsize=256)
def _definitions(path: str) -> tuple[str, list[str], dict[str, ast.AST]] | None:
    """A module's text, lines and top-level definitions, read once per run."""
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return None
    if not _MAY_SUMMARISE.search(text):
        return text, [], {}
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    definitions = {
        node.name: node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }
    return text, text.splitlines(), definitions


# Calls whose last name can make a summary non-empty (analysis.summarise):
# model constructors and loaders, compile, optimizer and metric classes.
_MODEL_CALLS = frozenset(
    {
        "Sequential", "Model", "Functional", "compile", "load_model", "clone_model",
        "model_from_json", "model_from_config", "model_from_yaml", "from_config",
        "from_pretrained", "from_preset", "create_optimizer", "AdamWeightDecay",
    }
)
_MODEL_MODULES = ("applications", "optimizers", "metrics", "mixed_precision", "models")


def _dotted_call(func: ast.AST) -> list[str]:
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    return parts[::-1]


def worth_summarising(path: str, names: Iterable[str], extra_model_factories: Iterable[str] = ()) -> bool:
    """Cheap tests before any analysis: does ``path`` define one of ``names``
    (the helpers an importer calls) as a model class, or as a function that,
    itself or through the module's own functions, calls something that builds,
    loads or compiles a model or creates an optimizer or metric?"""
    found = _definitions(path)
    if found is None or not names:
        return False
    _, _, definitions = found
    factories = {f.rpartition(".")[2] for f in extra_model_factories}
    for name in _reachable(definitions, names):
        node = definitions[name]
        if isinstance(node, ast.ClassDef):
            if _is_model_class(node, definitions, {name}):
                return True
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call):
                parts = _dotted_call(inner.func)
                if parts and (
                    parts[-1] in _MODEL_CALLS
                    or parts[-1] in factories
                    or any(p in _MODEL_MODULES for p in parts[:-1])
                ):
                    return True
    return False


def _reachable(definitions: dict[str, ast.AST], names: Iterable[str]) -> list[str]:
    """``names`` and the module's own functions and classes they call, transitively."""
    pending = [name for name in names if name in definitions]
    seen: list[str] = []
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.append(name)
        node = definitions[name]
        if isinstance(node, ast.ClassDef):
            continue  # a class is judged by its bases, not followed
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in definitions:
                pending.append(inner.func.id)
    return seen


def summarise_path(path: str, names: Iterable[str] = ()) -> dict[str, frozenset[str]]:
    """What ``path``'s helpers ``names`` do outside a scope, as rule codes; {} if unreadable.

    Model classes are known from ``ast`` alone. For functions, only their own
    source, the module's own functions they reach and its top-level imports
    are analysed: a 4,000-line module that defines a ten-line helper costs a
    ten-line analysis.
    """
    from mirrorguard.checker.core import summarise_source
    from mirrorguard.checker.rules import mg101_model_built_outside_strategy_scope as mg101

    found = _definitions(path)
    if found is None:
        return {}
    text, lines, definitions = found
    wanted = [n for n in names if n in definitions] if names else list(definitions)
    summary: dict[str, frozenset[str]] = {}
    reached = _reachable(definitions, wanted)
    functions = [name for name in reached if not isinstance(definitions[name], ast.ClassDef)
                 or _is_model_class(definitions[name], definitions, {name})]
    for name in reached:
        node = definitions[name]
        if isinstance(node, ast.ClassDef) and _is_model_class(node, definitions, {name}):
            summary[name] = frozenset({mg101.EFFECT.code})
    if not functions:
        return {k: v for k, v in summary.items() if k in wanted}
    tree_imports = _top_level_imports(text)
    pieces = [_segment(lines, node) for node in tree_imports]
    for name in sorted(reached):
        node = definitions[name]
        if isinstance(node, ast.ClassDef) and _is_model_class(node, definitions, {name}):
            pieces.append(_segment(lines, node))  # its __init__ runs on construction (it may compile)
        elif isinstance(node, ast.ClassDef):
            # Its name and bases are all the summary needs of another class.
            bases = ", ".join(ast.unparse(b) for b in node.bases)
            pieces.append(f"class {name}({bases}):\n    pass\n")
        else:
            pieces.append(_segment(lines, node))
    try:
        parsed = summarise_source("\n".join(pieces) + "\n")
    except Exception:  # a checker bug: no summary, no crash
        parsed = {}
    summary.update(parsed)
    return {k: v for k, v in summary.items() if k in wanted}


def _segment(lines: list[str], node: ast.AST) -> str:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "\n".join(lines[first - 1 : node.end_lineno]) + "\n"


@functools.lru_cache(maxsize=256)
def _top_level_imports_cached(text: str) -> tuple:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    return tuple(node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)))


def _top_level_imports(text: str) -> tuple:
    return _top_level_imports_cached(text)


def _is_model_class(node: ast.ClassDef, definitions: dict, seen: set[str]) -> bool:
    for base in node.bases:
        parts = _dotted_call(base)
        last = parts[-1] if parts else ""
        if last in ("Model", "Sequential", "Functional"):
            return True
        local = definitions.get(last)
        if isinstance(local, ast.ClassDef) and last not in seen:
            seen.add(last)
            if _is_model_class(local, definitions, seen):
                return True
    return False


def external_for(imports, importer: str, summaries: Callable[[str], dict[str, frozenset[str]]],
                 resolved: Callable[[str, str], str | None]) -> dict[str, frozenset[str]]:
    """``{"models.build_model": {...}}``: the importer's view of the helpers it imports."""
    external: dict[str, frozenset[str]] = {}
    for name, called in imports:
        target = resolved(name, importer)
        if target is None:
            continue
        for function, kinds in summaries(target).items():
            if function not in called:
                continue  # a helper the importer never calls cannot change a finding
            key = name + function if name.endswith(".") else f"{name}.{function}"
            external[key] = kinds
    return external


# -- a run ------------------------------------------------------------------

def _work(chunk: list[tuple[int, str, Settings, bool, bytes | None]]) -> list[tuple[int, FileResult]]:
    return [(index, check_path(path, settings, want, data)) for index, path, settings, want, data in chunk]


def _summarise_chunk(items: list[tuple[str, tuple[str, ...]]]) -> list[dict[str, frozenset[str]]]:
    return [summarise_path(path, names) for path, names in items]


class Runner:
    """Runs checks over a list of files with up to ``jobs`` processes."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)
        self._pool = None  # a ProcessPoolExecutor, made only when a run is big enough

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def map(self, function, items: list) -> list:
        """``function`` (a module-level function of a list of items) over ``items`` in the
        run's processes, results in the items' order (``check`` counts fixable findings so)."""
        return self._map(function, items)

    def _map(self, function, items: list) -> list:
        """``function`` over chunks of ``items``, results in the items' order."""
        if self.jobs == 1 or len(items) < MIN_FILES_FOR_POOL:
            return function(items)
        if self._pool is None:
            # Imported here: a pre-commit run on a few files never pays for it.
            from concurrent.futures import ProcessPoolExecutor

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
              cross_file: bool = True, root: str | None = None,
              contents: Mapping[str, bytes] | None = None) -> list[FileResult]:
        """Check ``files``; a path in ``contents`` is checked with those bytes
        (standard input named by ``--stdin-filename``) instead of the file on disk."""
        contents = contents or {}
        want = cross_file and len(files) > 0
        items = [(index, path, settings_for(path), want, contents.get(path)) for index, path in enumerate(files)]
        results = [result for _, result in self._map(_work, items)]
        if cross_file:
            self._cross_file(results, settings_for, root, contents)
        return results

    def _cross_file(self, results: list[FileResult], settings_for, root: str | None,
                    contents: Mapping[str, bytes]) -> None:
        root = os.path.abspath(root) if root else None
        resolutions: dict[tuple[str, str], str | None] = {}

        def resolved(name: str, importer: str) -> str | None:
            key = (name, os.path.dirname(importer))
            if key not in resolutions:
                resolutions[key] = resolve_module(name, importer, root)
            return resolutions[key]

        # Which modules of the tree to parse: those an importer resolves to and
        # that define one of the names the importer calls.
        wanted: set[int] = set()
        needed: dict[str, set[str]] = {}
        for index, result in enumerate(results):
            for name, called in result.imports:
                target = resolved(name, result.path)
                extra = settings_for(result.path).extra_model_factories
                if target is not None and worth_summarising(target, called, extra):
                    wanted.add(index)
                    needed.setdefault(os.path.abspath(target), set()).update(called)
        if not wanted:
            return
        modules = sorted(needed)
        work = [(module, tuple(sorted(needed[module]))) for module in modules]
        parsed = dict(zip(modules, self._map(_summarise_chunk, work)))
        recheck = []
        for index in sorted(wanted):
            result = results[index]
            external = external_for(result.imports, result.path,
                                    lambda path: parsed.get(os.path.abspath(path), {}), resolved)
            if external:
                settings = replace(settings_for(result.path), external=external)
                recheck.append((index, result.path, settings, False, contents.get(result.path)))
        settings_of = {index: settings for index, _, settings, _, _ in recheck}
        for index, result in self._map(_work, recheck):
            result.settings = settings_of[index]
            results[index] = result


def _context():
    import multiprocessing

    # fork: workers start at once with the checker already imported; elsewhere
    # the platform default (spawn) re-imports it in each worker.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()
