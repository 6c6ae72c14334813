"""One file's text in, its findings out: file -> source -> analysis -> findings.

Everything the command line and the flake8 adapter report goes through
:func:`check_source`, which is how ``flake8 --select MG`` and
``mirrorguard check`` agree line for line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from mirrorguard.checker import source as sources
from mirrorguard.checker.findings import Finding

# libcst and the rules are imported on first use: a run over files with no
# strategy in play (most pre-commit runs) never pays for them.

# A file with no strategy in play gets no MG1xx/MG2xx finding, and a strategy
# is in play only through a strategy class, ``get_strategy`` or ``.scope()`` on
# something strategy-named; files without any of those spellings are never
# handed to libcst, which is ten times slower to parse than ``ast``. (A looser
# test on "strategy" alone lets through scikit-learn's ``strategy="mean"``.)
_MAY_HAVE_STRATEGY = re.compile(
    r"(?:Mirrored|TPU|CentralStorage|ParameterServer|OneDevice)Strategy"
    r"|get_strategy|strategy_scope"
    r"|(?i:strat\w*)\s*(?:\(\s*\))?\s*\.\s*scope\s*\("
)
# Line breaks as the tokenizer (and libcst's positions) count them; str.splitlines
# would also split at form feeds and other separators.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Settings:
    """What to report. Codes in ``select``/``ignore`` are codes or prefixes."""

    select: tuple[str, ...] = ("MG",)
    ignore: tuple[str, ...] = ()
    extra_strategy_names: tuple[str, ...] = ()
    extra_model_factories: tuple[str, ...] = ()
    # Cross-file analysis: qualified name -> what that function does outside a
    # scope (see analysis.summarise), for helpers imported from other files.
    external: Mapping[str, frozenset[str]] = field(default_factory=dict, compare=False)
    respect_noqa: bool = True

    def enabled(self, code: str) -> bool:
        """The most specific matching prefix wins, as in ruff and flake8."""
        chosen = max((p for p in self.select if code.startswith(p)), key=len, default=None)
        if chosen is None:
            return False
        ignored = max((p for p in self.ignore if code.startswith(p)), key=len, default=None)
        return ignored is None or len(chosen) > len(ignored)

    def may_have_strategy(self, text: str) -> bool:
        # Plain substring tests first: the regex only runs on text that holds
        # one of the words every alternative of it needs (3x faster overall).
        if ("Strategy" in text or "strategy" in text or "scope" in text) and _MAY_HAVE_STRATEGY.search(text):
            return True
        return any(name in text for name in self.extra_strategy_names)


DEFAULT_SETTINGS = Settings()


Imports = tuple[tuple[str, tuple[str, ...]], ...]


def check_source(
    text: str,
    path: str = "<string>",
    settings: Settings = DEFAULT_SETTINGS,
    *,
    compiled: bool = False,
) -> list[Finding]:
    """Findings for one module's source text, sorted by position.

    ``compiled`` says the caller already knows CPython accepts the text (flake8
    compiled it), which saves compiling it again.
    """
    return check_source_and_imports(text, path, settings, compiled=compiled)[0]


def check_source_and_imports(
    text: str,
    path: str = "<string>",
    settings: Settings = DEFAULT_SETTINGS,
    *,
    compiled: bool = False,
) -> tuple[list[Finding], Imports]:
    """Findings, and, when a strategy is in play, the imported modules the file
    calls into with the names it calls: ``(("models", ("build_model",)),)``.

    Cross-file analysis needs the second; the walk records it for free.
    """
    if not compiled:
        rejected = sources.cpython_rejects(text, path)
        if rejected is not None:
            return unreadable_findings(path, rejected, settings), ()
    if not settings.may_have_strategy(text):
        return [], ()
    findings, analysis = _analyse_text(text, path, settings)
    if analysis is None or not analysis.strategy_in_play:
        return findings, ()
    modules: dict[str, set[str]] = {}
    for qualified in analysis.imported_calls:
        module, _, name = qualified.rpartition(".")
        if module and module.strip("."):
            modules.setdefault(module, set()).add(name)
    return findings, tuple((m, tuple(sorted(n))) for m, n in sorted(modules.items()))


def _analyse_text(text: str, path: str, settings: Settings):
    import libcst as cst

    from mirrorguard.checker.analysis import analyse
    from mirrorguard.checker.rules import ALL_RULES, Unit

    try:
        module = cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        # CPython accepts what libcst cannot parse (rare: newer syntax than
        # this libcst knows). Nothing to analyse, and nothing wrong to report.
        return [], None
    try:
        analysis = analyse(
            module,
            extra_strategy_names=settings.extra_strategy_names,
            extra_model_factories=settings.extra_model_factories,
            external=settings.external,
        )
    except RecursionError:
        return [], None
    if not analysis.strategy_in_play:
        return [], analysis
    unit = Unit(module, analysis)
    raw = [
        (rule, item, message)
        for rule in ALL_RULES
        if rule.check is not None and settings.enabled(rule.code)
        for item, message in rule.check(unit)
    ]
    if not raw or (settings.respect_noqa and sources.file_is_noqa(text)):
        return [], analysis
    positions = _positions(module, [item for _, item, _ in raw])
    lines = _LINE_BREAK.split(text)
    findings = []
    for rule, item, message in raw:
        line, column, end_line, end_column = positions[id(item.node)]
        if settings.respect_noqa and line <= len(lines):
            if sources.suppressed(rule.code, sources.noqa_codes(lines[line - 1])):
                continue
        findings.append(Finding(path, line, column + 1, rule.code, rule.name, message,
                                end_line=end_line, end_column=end_column + 1))
    return sorted(set(findings)), analysis


def _positions(module, items) -> dict[int, tuple[int, int, int, int]]:
    """(line, 0-based column, end line, 0-based end column) of each item's node.

    libcst's PositionProvider over a whole module costs several times the
    parse, so it runs only on the module-level statements that hold findings;
    where those statements start is counted from the generated code of the
    ones before them, which is cheap.
    """
    from libcst.metadata import MetadataWrapper, PositionProvider

    wanted: dict[int, list] = {}
    for item in items:
        wanted.setdefault(id(item.top), []).append(item)
    first_line = 1 + len(module.header)
    result: dict[int, tuple[int, int, int, int]] = {}
    for statement in module.body:
        group = wanted.pop(id(statement), None)
        if group is not None:
            alone = module.with_changes(body=[statement], header=[], footer=[])
            spans = MetadataWrapper(alone, unsafe_skip_copy=True).resolve(PositionProvider)
            for item in group:
                span = spans[item.node]
                result[id(item.node)] = (first_line + span.start.line - 1, span.start.column,
                                         first_line + span.end.line - 1, span.end.column)
        if not wanted:
            break
        first_line += len(_LINE_BREAK.findall(module.code_for_node(statement)))
    return result


def unreadable_findings(path: str, why: sources.Unreadable, settings: Settings) -> list[Finding]:
    """The MG000 finding for ``why``, if MG000 is selected."""
    from mirrorguard.checker.rules import UNREADABLE

    if not settings.enabled(UNREADABLE.code):
        return []
    return [Finding(path, why.line, why.column, UNREADABLE.code, UNREADABLE.name, why.reason)]


def check_file(path: str, settings: Settings = DEFAULT_SETTINGS) -> list[Finding]:
    decoded = sources.read_file(path)
    if isinstance(decoded, sources.Unreadable):
        return unreadable_findings(path, decoded, settings)
    return check_source(decoded.text, path, settings)
