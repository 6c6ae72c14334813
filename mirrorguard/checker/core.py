"""One file's text in, its findings out: file -> source -> ast -> semantic model -> rules -> findings.

Everything the command line and the flake8 adapter report goes through
:func:`check_source`, which is how ``flake8 --select MG`` and
``mirrorguard check`` agree line for line.
"""

from __future__ import annotations

import ast
import gc
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from mirrorguard.checker import source as sources
from mirrorguard.checker.findings import Finding

if TYPE_CHECKING:
    from mirrorguard.checker.rules import Context, Report, Rule
    from mirrorguard.checker.semantic import SemanticModel

# The rules and the semantic model are imported on first use: a run over files
# with no strategy in play (most pre-commit runs) never pays for them.

# A file with no strategy in play gets no MG1xx/MG2xx finding, and a strategy
# is in play only through a strategy class, ``get_strategy`` or ``.scope()`` on
# something strategy-named; files without any of those spellings are never
# analysed. (A looser
# test on "strategy" alone lets through scikit-learn's ``strategy="mean"``.)
_STRATEGY_WORDS = (
    "MirroredStrategy", "TPUStrategy", "CentralStorageStrategy", "ParameterServerStrategy",
    "OneDeviceStrategy", "get_strategy", "strategy_scope",
)
# What stands before ``.scope(``: ``strategy``, ``self.dist_strategy``, ``get_strat()``.
_STRATEGY_RECEIVER = re.compile(r"strat\w*\s*(?:\(\s*\))?\s*$")
# ``strategy = set_TPU()``: the project's own helper returns it (matched on lower-cased text).
_STRATEGY_FACTORY = re.compile(r"strat\w*\s*=\s*[\w.]*(?:tpu|strateg|distribut|replica|gpu|device)\w*\s*\(")


def _mentions_strategy(text: str) -> bool:
    """Plain substring searches first; the patterns only run where a word they need stands."""
    if any(word in text for word in _STRATEGY_WORDS):
        return True
    start = text.find("scope")
    while start != -1:
        dot = start - 1
        while dot >= 0 and text[dot] in " \t\\\n":
            dot -= 1
        call = start + 5
        while call < len(text) and text[call] in " \t":
            call += 1
        if dot >= 0 and text[dot] == "." and text[call:call + 1] == "(":
            if _STRATEGY_RECEIVER.search(text[max(0, dot - 80):dot].lower()):
                return True
        start = text.find("scope", start + 5)
    if "strat" in text or "Strat" in text or "STRAT" in text:
        lowered = text.lower()
        position = lowered.find("strat")
        while position != -1:
            if (position == 0 or not (lowered[position - 1].isalnum() or lowered[position - 1] == "_")) and (
                    _STRATEGY_FACTORY.match(lowered, position)):
                return True
            position = lowered.find("strat", position + 5)
    return False


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
        if ("trat" in text or "TRAT" in text or "scope" in text) and _mentions_strategy(text):
            return True
        return any(name in text for name in self.extra_strategy_names)


# Codes of the opinionated rules (``default_enabled=False``): off unless selected, for
# the library's default settings as for the command line and flake8 (a test keeps this
# in step with the rules, which are not imported here).
DEFAULT_OFF: tuple[str, ...] = ("MG405",)
DEFAULT_SETTINGS = Settings(ignore=DEFAULT_OFF)


Imports = tuple[tuple[str, tuple[str, ...]], ...]


def check_source(
    text: str,
    path: str = "<string>",
    settings: Settings = DEFAULT_SETTINGS,
    *,
    compiled: bool = False,
    tree: ast.Module | None = None,
) -> list[Finding]:
    """Findings for one module's source text, sorted by position.

    Raises :class:`RuleFailed` (with the other rules' findings) when a rule raises.

    ``compiled`` says the caller already knows CPython accepts the text (flake8
    compiled it), which saves compiling it again; ``tree`` is that caller's
    ``ast`` of the text, which saves parsing it again.
    """
    return check_source_and_imports(text, path, settings, compiled=compiled, tree=tree)[0]


def check_source_and_imports(
    text: str,
    path: str = "<string>",
    settings: Settings = DEFAULT_SETTINGS,
    *,
    compiled: bool = False,
    tree: ast.Module | None = None,
) -> tuple[list[Finding], Imports]:
    """Findings, and, when a strategy is in play, the imported modules the file
    calls into with the names it calls: ``(("models", ("build_model",)),)``.

    Cross-file analysis needs the second; the walk records it for free.
    """
    # The model is thousands of small objects with cycles (units <-> call sites),
    # all garbage once the findings are out: the cyclic collector, run every 700
    # allocations during the walk, only re-traverses live ones (10-20 % of the
    # analysis). Paused here, it frees the whole model in one pass after it.
    # A caller that paused it itself keeps it paused.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _check_source_and_imports(text, path, settings, compiled=compiled, tree=tree)
    finally:
        if paused:
            gc.enable()


def _check_source_and_imports(
    text: str, path: str, settings: Settings, *, compiled: bool, tree: ast.Module | None,
) -> tuple[list[Finding], Imports]:
    may_have_strategy = settings.may_have_strategy(text)
    if not compiled and tree is None:
        # A file that may have a strategy is parsed once; what flake8 parses (E999 aside) is analysed.
        tree, rejected = (sources.parse(text, path, flake8=True) if may_have_strategy
                          else (None, sources.syntax_rejects(text, path)))
        if rejected is not None:
            return unreadable_findings(path, rejected, settings), ()
    if not may_have_strategy:
        return [], ()
    analysed = analyse_source(text, settings, tree=tree)
    if analysed is None or not analysed.model.strategy_in_play:
        return [], ()
    findings = _findings(analysed, text, path, settings)
    modules: dict[str, set[str]] = {}
    for qualified in analysed.model.imported_calls:
        module, _, name = qualified.rpartition(".")
        if module and module.strip("."):
            modules.setdefault(module, set()).add(name)
    imports = tuple((m, tuple(sorted(n))) for m, n in sorted(modules.items()))
    if analysed.failures:
        raise RuleFailed(analysed.failures, findings, imports)
    return findings, imports


class RuleFailure:
    """A rule that raised on a file: a bug of mirrorguard's, never the file's."""

    # Plain classes with slots, here and below: a dataclass costs its module's import
    # about half a millisecond to generate, and these are built only when a file is analysed.
    __slots__ = ("code", "name", "error")

    def __init__(self, code: str, name: str, error: BaseException) -> None:
        self.code = code
        self.name = name
        self.error = error

    def __repr__(self) -> str:
        return f"RuleFailure({self.code!r}, {self.name!r}, {self.error!r})"

    def describe(self) -> str:
        return f"internal error in rule {self.code} ({self.name}): {type(self.error).__name__}: {self.error}"


class RuleFailed(Exception):
    """One or more rules raised on a file. The other rules' findings (and the
    imports cross-file analysis needs) come with it: a run reports them, says
    which rule failed on which file, and exits 2, as ruff does for a panic."""

    def __init__(self, failures: list[RuleFailure], findings: list[Finding], imports: "Imports" = ()) -> None:
        super().__init__("; ".join(failure.describe() for failure in failures)
                         + " (please report it; the other rules still reported)")
        self.failures = failures
        self.findings = findings
        self.imports = imports


class RuleReport:
    """One report and the rule that made it."""

    __slots__ = ("rule", "report")

    def __init__(self, rule: "Rule", report: "Report") -> None:
        self.rule = rule
        self.report = report


class Analysed:
    """One module's semantic model and what the enabled rules report on it."""

    __slots__ = ("model", "context", "reports", "failures")

    def __init__(self, model: "SemanticModel", context: "Context", reports: list[RuleReport],
                 failures: list[RuleFailure] | None = None) -> None:
        self.model = model
        self.context = context
        self.reports = reports
        self.failures = failures if failures is not None else []


def analyse_source(text: str, settings: Settings = DEFAULT_SETTINGS, *,
                   tree: ast.Module | None = None) -> Analysed | None:
    """The semantic model of ``text`` and the reports of the enabled rules;
    None when there is nothing to analyse (too deep for the walk)."""
    from mirrorguard.checker.rules import ALL_RULES, EFFECTS, Context
    from mirrorguard.checker.semantic import build_model
    from mirrorguard.checker.semantic.positions import Positions

    try:
        if tree is None:
            # Notebook cells may ``await`` at the top level; a plain file that
            # does was already refused by CPython's own compile.
            tree = compile(text, "<analysed>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                           dont_inherit=True)
        model = build_model(
            tree,
            EFFECTS,
            extra_strategy_names=settings.extra_strategy_names,
            extra_model_factories=settings.extra_model_factories,
            external=settings.external,
        )
        context = Context(model, Positions(text))
    except (RecursionError, SyntaxError, ValueError, MemoryError):
        # Nested too deeply for the walk (CPython compiled it): nothing to judge.
        return None
    reports: list[RuleReport] = []
    failures: list[RuleFailure] = []
    if model.strategy_in_play:
        for rule in ALL_RULES:
            if rule.check is None or not settings.enabled(rule.code):
                continue
            # Each rule on its own: one that raises is our bug, reported as such,
            # and never silences the others (MG101 included).
            try:
                reports.extend(RuleReport(rule, report) for report in rule.check(context))
            except (RecursionError, MemoryError):
                continue  # nested too deeply for this rule's own walk: nothing it can judge
            except Exception as exc:
                failures.append(RuleFailure(rule.code, rule.name, exc))
    return Analysed(model, context, reports, failures)


def _findings(analysed: Analysed, text: str, path: str, settings: Settings) -> list[Finding]:
    if not analysed.reports or (settings.respect_noqa and sources.file_is_noqa(text)):
        return []
    positions = analysed.context.positions
    findings = set()
    for made in analysed.reports:
        rule, report = made.rule, made.report
        line, column, end_line, end_column = positions.span(report.node)
        if settings.respect_noqa and sources.suppressed(rule.code, sources.noqa_codes(positions.line(line))):
            continue
        findings.add(Finding(path, line, column + 1, rule.code, rule.name, report.message,
                             end_line=end_line, end_column=end_column + 1, fixable=report.fixable))
    return sorted(findings)


def unreadable_findings(path: str, why: sources.Unreadable, settings: Settings) -> list[Finding]:
    """The MG000 finding for ``why``, if MG000 is selected."""
    from mirrorguard.checker.rules import UNREADABLE

    if not settings.enabled(UNREADABLE.code):
        return []
    return [Finding(path, why.line, why.column, UNREADABLE.code, UNREADABLE.name, why.reason)]


def summarise_source(text: str) -> dict[str, frozenset[str]]:
    """What each module-level function and model class of ``text`` does outside
    a scope of its own, as rule codes: how other files see its helpers."""
    from mirrorguard.checker.rules import EFFECTS
    from mirrorguard.checker.semantic import build_model

    try:
        return build_model(ast.parse(text), EFFECTS).summary()
    except (RecursionError, SyntaxError, ValueError, MemoryError):
        return {}


def check_file(path: str, settings: Settings = DEFAULT_SETTINGS) -> list[Finding]:
    decoded = sources.read_file(path)
    if isinstance(decoded, sources.Unreadable):
        return unreadable_findings(path, decoded, settings)
    return check_source(decoded.text, path, settings)
