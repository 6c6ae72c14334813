"""One module's text in, its fixed text out, with what was fixed and what was not (and why).

The fixer works a round at a time: check the text, plan a fix for the first
finding that has one, apply it by moving whole lines (see :mod:`.lines`), and
check again. A fix is kept only when the new text compiles, the finding it
targets is gone and no finding appeared; otherwise the finding stays, with the
reason. Working in rounds is also what makes fixing twice the same as fixing once:
the rounds stop only when no finding left has a fix.

A notebook's code cells are fixed as one joined program with a :class:`Layout`
(see :mod:`.notebooks`): plans stay inside one cell, every kept rewrite must
leave each line in its cell and magic lines as they were, and the output lines'
origins, composed over the rounds, put the result back into cells.

The fixes (statement level, within one block: a module body or a function body):

* **into an existing block**: statements flagged MG101-MG104 that come right
  before or right after a plain ``with <strategy>.scope():`` block move into it
  (functional-API steps such as ``x = layers.Dense(8)(x)`` feeding the model
  move with it); nothing is reordered, so only the scope changes;
* **a new block**: otherwise, flagged statements after the strategy's creation
  are wrapped in a new ``with <strategy>.scope():``, with the statements between
  them (unless one of those trains, evaluates or saves: then each side gets its own block);
* **after the strategy**: a statement flagged before the strategy is created
  moves after it (into the first scope block, or a new one), only when nothing
  it passes uses or changes what it binds, changes what it reads, or calls
  anything with an effect it could depend on;
* **MG201** (unsafe, only on request): the batch size ``N`` becomes
  ``N * <strategy>.num_replicas_in_sync`` where the strategy exists already.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from mirrorguard.checker.core import DEFAULT_SETTINGS, Settings, analyse_source, check_source
from mirrorguard.checker.findings import Finding
from mirrorguard.fixer import statements as st
from mirrorguard.checker import source as sources
from mirrorguard.fixer.lines import Lines, is_blank, split_lines

from mirrorguard.checker.rules import ALL_RULES, Applicability, Fix

# Each rule declares its fix and that fix's safety; the fixer knows the fixes, not the rules.
FIX_OF = {r.code: r.fix for r in ALL_RULES if r.fix is not Fix.NONE}
SAFE_CODES = frozenset(code for code, fix in FIX_OF.items() if fix.applicability is Applicability.SAFE)
UNSAFE_CODES = frozenset(code for code, fix in FIX_OF.items() if fix.applicability is Applicability.UNSAFE)
UNREADABLE_CODE = "MG000"
NEEDS_UNSAFE = "the fix changes the global batch size on multi-replica machines; apply it with --unsafe-fixes"
NO_FIX = "no automatic fix for this rule"
_MAX_ROUNDS = 200


@dataclass
class FixResult:
    """What :func:`fix_source` did to one text."""

    text: str
    original: str
    fixed: list[Finding] = field(default_factory=list)  # findings of the original text now gone
    remaining: list[tuple[Finding, str]] = field(default_factory=list)  # (finding, why it is left)
    unreadable: bool = False  # MG000: the text was left alone
    # For each line of ``text``, the line of ``original`` it came from (0-based;
    # None for a line the fixer wrote): how a notebook's cells are put back together.
    origins: list[int | None] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original


@dataclass(frozen=True)
class _Plan:
    """A planned fix: the whole rewritten text, each line's origin (0-based line
    of the text before, None for a written line) and what it does; or, when
    ``refusal`` is set, why the finding gets no fix."""

    text: str = ""
    origins: list[int | None] = field(default_factory=list)
    what: str = ""
    refusal: str | None = None

    @staticmethod
    def refused(why: str) -> "_Plan":
        return _Plan(refusal=why)


@dataclass(frozen=True)
class _Target:
    code: str
    node: cst.CSTNode  # the libcst node the finding spans
    key: tuple[int, int, str]  # line, 1-based column, code: where check_source reports it


COMPILE_FAILS = "internal: the rewrite would not compile; left as it is"
CROSSES_CELLS = "the fix would move code between notebook cells; move it by hand"


@dataclass(frozen=True)
class Layout:
    """A text made of parts that fixes must keep apart: a notebook's code cells, joined.

    ``regions`` gives, for each line of the original text, the part it belongs
    to (non-decreasing). A fix is planned inside one part and kept only if
    every line stays in its part, in part order; lines the fixer writes (a new
    ``with`` header) belong to the part of the line after them. ``frozen``
    lines (IPython magics, neutralised for the checker) must come back byte
    for byte: statements holding one are not swallowed by a new block.
    ``compiles`` says why a candidate text is not valid (None when it is), and
    ``check`` finds its findings; ``guard`` may refuse a candidate with a
    reason, seeing its text and each line's origin in the original text.
    """

    regions: Sequence[int]
    frozen: frozenset[int] = frozenset()
    compiles: Callable[[str], str | None] | None = None
    check: Callable[[str], list[Finding]] | None = None
    guard: Callable[[str, list[int | None]], str | None] | None = None


def regions_of(origins: Sequence[int | None], regions: Sequence[int]) -> list[int]:
    """The part each line of a rewritten text is in; a written line joins the next line's part."""
    out: list[int | None] = [None] * len(origins)
    following: int | None = None
    for index in range(len(origins) - 1, -1, -1):
        origin = origins[index]
        if origin is not None and origin < len(regions):
            following = regions[origin]
        out[index] = following
    previous = regions[0] if regions else 0
    for index, region in enumerate(out):
        if region is None:
            out[index] = previous
        else:
            previous = region
    return out  # type: ignore[return-value]


def _preferred(node: cst.CSTNode) -> int:
    """Among nodes with one span, the one a finding is about: a call, an argument, an expression."""
    if isinstance(node, cst.Call):
        return 3
    if isinstance(node, cst.Arg):
        return 2
    return 1 if isinstance(node, cst.BaseExpression) else 0


def _signature(findings: list[Finding]) -> Counter:
    return Counter((f.code, f.message) for f in findings)


# Findings whose fixes move objects into the scope. Keras 3 accepts a model, its optimizer and
# metric objects and its compile() all inside or all outside (then it trains silently on one
# replica), never a mix: a model left outside with its compile() moved in fails in fit(). So
# the findings of one object's group are fixed together or not at all.
SCOPE_GROUP = frozenset({"MG101", "MG102", "MG103", "MG104", "MG105"})
_BINDS = re.compile(r"\s*([A-Za-z_][\w.]*)\s*(?::[^=]+)?=(?!=)")
_COMPILES = re.compile(r"([A-Za-z_][\w.]*)\.compile\(")


def fix_source(text: str, path: str = "<string>", settings: Settings = DEFAULT_SETTINGS, *,
               unsafe: bool = False, layout: Layout | None = None) -> FixResult:
    """Fix what can be fixed safely (and MG201 too when ``unsafe``) in one module's text.

    With a ``layout`` (a notebook's cells joined), fixes stay inside one part. Scope fixes are
    all or nothing for each object (:data:`SCOPE_GROUP`): when one is refused, its group stays.
    """
    result = _fix_source(text, path, settings, unsafe=unsafe, layout=layout)
    refused = [finding for finding, _ in result.remaining if finding.code in SCOPE_GROUP]
    fixed = [finding for finding in result.fixed if finding.code in SCOPE_GROUP]
    held = _same_objects(text, refused, fixed)
    if not held:
        return result
    # A partial move would turn a program that runs (on one replica) into one that fails.
    keep = {(finding.line - 1, finding.code) for finding in held}
    result = _fix_source(text, path, settings, unsafe=unsafe, layout=layout, hold=keep)
    why = ("it moves into the scope together with a finding that cannot move (see it); moving only "
           "part of them would fail in Keras 3")

    def was_held(finding: Finding) -> bool:
        origin = result.origins[finding.line - 1] if 0 < finding.line <= len(result.origins) else None
        return (origin, finding.code) in keep

    result.remaining = [(finding, why if was_held(finding) else reason) for finding, reason in result.remaining]
    return result


def _same_objects(text: str, refused: list[Finding], fixed: list[Finding]) -> list[Finding]:
    """The fixed findings that concern the objects of the refused ones.

    Two findings are of one group when the statement of one reads the name the other binds
    (`model = ...` and `model.compile(optimizer=opt)`, `opt = ...`), followed to a fixed point.
    """
    lines = split_lines(text)

    def line_of(finding: Finding) -> str:
        return lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""

    def subject(finding: Finding) -> str | None:
        found = _BINDS.match(line_of(finding)) or _COMPILES.search(line_of(finding))
        return found.group(1).split(".")[0] if found else None

    def reads(finding: Finding, name: str) -> bool:
        return re.search(rf"(?<![\w.]){re.escape(name)}\b", line_of(finding)) is not None

    names = {name for name in map(subject, refused) if name}
    group: list[Finding] = []
    changed = True
    while changed:
        changed = False
        for finding in fixed:
            if finding in group:
                continue
            own = subject(finding)
            if any(reads(finding, name) for name in names) or (own and any(reads(r, own) for r in [*refused, *group])):
                group.append(finding)
                if own:
                    names.add(own)
                changed = True
    return group


def _fix_source(text: str, path: str, settings: Settings, *, unsafe: bool, layout: Layout | None,
                hold: frozenset | set = frozenset()) -> FixResult:
    """:func:`fix_source` without the scope groups' all-or-nothing.

    ``hold``: findings left alone, as (0-based line of ``text``, code).
    """
    if layout is not None and layout.check is not None:
        before_check = check = layout.check
    else:
        before_check = lambda t: check_source(t, path, settings)  # noqa: E731
        check = lambda t: check_source(t, path, settings, compiled=True)  # noqa: E731 - compiled below
    if layout is not None and layout.compiles is not None:
        compiles = layout.compiles
    else:
        compiles = lambda t: _compile_problem(t, path)  # noqa: E731
    before = before_check(text)
    identity: list[int | None] = list(range(len(split_lines(text))))
    result = FixResult(text, text, origins=identity)
    if any(f.code == UNREADABLE_CODE for f in before):
        result.unreadable = True
        result.remaining = [(f, "the file cannot be read or parsed, so it is not changed") for f in before]
        return result
    fixable = SAFE_CODES | (UNSAFE_CODES if unsafe else frozenset())
    current, findings, origins = text, before, identity
    reasons: dict[tuple[int, int, str], str] = {}
    for _ in range(_MAX_ROUNDS):
        if not any(f.code in fixable for f in findings):
            break
        try:
            round_ = _Round(current, settings, findings, fixable, _Parts.of(layout, origins))
        except (cst.ParserSyntaxError, RecursionError, ValueError):
            break
        reasons = {}
        applied = False
        for target in round_.targets:
            line, _, code = target.key
            if hold and 0 < line <= len(origins) and (origins[line - 1], code) in hold:
                continue
            planned = round_.plan(target)
            if planned.refusal is not None:
                reasons[target.key] = planned.refusal
                continue
            composed = [None if i is None else origins[i] for i in planned.origins]
            why = _outside_layout(planned.text, composed, layout) or compiles(planned.text)
            if why is not None:
                reasons[target.key] = why
                continue
            after = check(planned.text)
            why = _rejected(findings, after, target, round_)
            if why is not None:
                reasons[target.key] = why
                continue
            current, findings, origins = planned.text, after, composed
            applied = True
            break
        if not applied:
            break
    result.text = current
    result.origins = origins
    result.fixed = _fixed_findings(before, findings, origins)
    for finding in findings:
        why = reasons.get((finding.line, finding.column, finding.code))
        if why is None:
            if finding.code in UNSAFE_CODES and not unsafe:
                why = NEEDS_UNSAFE
            elif finding.code not in SAFE_CODES | UNSAFE_CODES:
                why = NO_FIX
            else:
                why = "no fix found"
        result.remaining.append((finding, why))
    return result


def _fixed_findings(before: list[Finding], after: list[Finding], origins: list[int | None]) -> list[Finding]:
    """The findings of ``before`` that ``after`` (findings of the fixed text) no longer has.

    A finding still there is found through ``origins`` (the original line of each line of the
    fixed text), so that of two findings with the same message (two ``model.compile(...)``) the
    one that moved counts as fixed, not the first of them; a finding on a line the fix wrote
    (no origin) is matched by its message.
    """
    still = Counter()
    unplaced = Counter()
    for finding in after:
        origin = origins[finding.line - 1] if 0 < finding.line <= len(origins) else None
        if origin is None:
            unplaced[(finding.code, finding.message)] += 1
        else:
            still[(origin + 1, finding.code)] += 1
    fixed = []
    for finding in before:
        if still[(finding.line, finding.code)] > 0:
            still[(finding.line, finding.code)] -= 1
        elif unplaced[(finding.code, finding.message)] > 0:
            unplaced[(finding.code, finding.message)] -= 1
        else:
            fixed.append(finding)
    return fixed


def _compile_problem(text: str, path: str) -> str | None:
    rejected = sources.cpython_rejects(text, path)
    return None if rejected is None else COMPILE_FAILS


def _outside_layout(text: str, origins: list[int | None], layout: Layout | None) -> str | None:
    """Why a candidate breaks the layout (lines leaving their part, a refusing guard), or None."""
    if layout is None:
        return None
    parts = regions_of(origins, layout.regions)
    if any(a > b for a, b in zip(parts, parts[1:])):
        return CROSSES_CELLS
    return layout.guard(text, origins) if layout.guard is not None else None


def _rejected(before: list[Finding], after: list[Finding], target: _Target, round_: _Round) -> str | None:
    """Why a planned rewrite is not kept, or None to keep it."""
    if any(f.code == UNREADABLE_CODE for f in after):
        return COMPILE_FAILS
    old, new = _signature(before), _signature(after)
    if new - old:
        added = ", ".join(sorted(code for code, _ in (new - old)))
        return f"moving it would cause another finding ({added}); move it by hand"
    message = round_.message_of(target)
    if message is not None and new[(target.code, message)] >= old[(target.code, message)]:
        return "moving it into the scope does not satisfy the check; move it by hand"
    return None


@dataclass(frozen=True)
class _Parts:
    """A layout seen from the current text: each line's part, and the frozen lines."""

    regions: list[int]
    frozen: frozenset[int]

    @classmethod
    def of(cls, layout: Layout | None, origins: list[int | None]) -> _Parts | None:
        if layout is None:
            return None
        frozen = frozenset(i for i, o in enumerate(origins) if o is not None and o in layout.frozen)
        return cls(regions_of(origins, layout.regions), frozen)

    def part(self, line: int) -> int:
        if not self.regions:
            return 0
        return self.regions[min(max(line, 0), len(self.regions) - 1)]

    def describe(self, line: int) -> str:
        """``cell 3, line 2`` for a 0-based line of the current text."""
        part = self.part(line)
        first = line
        while first > 0 and self.part(first - 1) == part:
            first -= 1
        return f"cell {part}, line {line - first + 1}"


class _Round:
    """One check of the current text: its tree, the findings to fix, and the plans for them."""

    def __init__(self, text: str, settings: Settings, findings: list[Finding], fixable: frozenset[str],
                 parts: _Parts | None = None) -> None:
        self.text = text
        self.parts = parts
        self.module = cst.parse_module(text)
        self.positions = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        self.parents, self.nodes = st.index_tree(self.module)
        self.lines = Lines(text)
        self.imported = st.imported_names(self.nodes)
        self.loggers = st.loggers(self.nodes)
        self._scope_names: dict[str, set[str]] = {}
        self.findings = {(f.line, f.column, f.code): f for f in findings}
        # Only the semantic model is wanted here (the strategy's name): no rule needs to run.
        analysed = analyse_source(text, replace(settings, select=()))
        self.strategy_names = {analysed.model.strategy_variable} - {""} if analysed is not None else set()
        # strategy-names from the configuration: the checker takes them for strategies, so must the fixer.
        self.configured_strategies = frozenset(settings.extra_strategy_names)
        # The analysis reports spans; the node to move or rewrite is the libcst
        # node with exactly that span (a call, or a batch-size argument).
        spans: dict[tuple[int, int, int, int], cst.CSTNode] = {}
        for node, span in self.positions.items():
            key = (span.start.line, span.start.column + 1, span.end.line, span.end.column + 1)
            if key not in spans or _preferred(node) > _preferred(spans[key]):
                spans[key] = node
        self.targets: list[_Target] = []
        for finding in findings:
            if finding.code not in fixable or finding.end_line is None:
                continue
            node = spans.get((finding.line, finding.column, finding.end_line, finding.end_column))
            if node is not None:
                self.targets.append(_Target(finding.code, node, (finding.line, finding.column, finding.code)))
        self.targets.sort(key=lambda t: t.key)
        # Statements holding a scope finding: runs of them move together.
        self.flagged: set[int] = set()
        for target in self.targets:
            if target.code in SAFE_CODES:
                place = st.place_of(target.node, self.parents)
                if place is not None:
                    self.flagged.add(id(place.inner.statement))

    def message_of(self, target: _Target) -> str | None:
        finding = self.findings.get(target.key)
        return finding.message if finding else None

    # --- positions ----------------------------------------------------------------

    def first_line(self, statement: cst.CSTNode) -> int:
        """0-based index of a statement's first code line (after its comments)."""
        return self.positions[statement].start.line - 1

    def end_line(self, statement: cst.CSTNode) -> int:
        """0-based index one past a statement's last line."""
        return self.positions[statement].end.line

    def attached_comments(self, statement: cst.CSTNode) -> int:
        """How many comment lines right above a statement belong to it (no blank line between,
        and in the same notebook cell)."""
        count = 0
        first = self.first_line(statement)
        for empty in reversed(getattr(statement, "leading_lines", ())):
            if empty.comment is None or not self.same_part(first, first - count - 1):
                break
            count += 1
        return count

    def blank_run_above(self, index: int) -> list[int]:
        run = []
        start = index
        index -= 1
        while (index >= 0 and is_blank(self.lines.lines[index]) and index not in self.lines.in_string
               and self.same_part(start, index) and not (self.parts and index in self.parts.frozen)):
            run.append(index)
            index -= 1
        return run

    # --- notebook cells ------------------------------------------------------------

    def same_part(self, a: int, b: int) -> bool:
        """Are 0-based lines ``a`` and ``b`` in the same notebook cell (always, for a plain file)?"""
        return self.parts is None or self.parts.part(a) == self.parts.part(b)

    def frozen(self, statement: cst.CSTNode) -> bool:
        """Does the statement hold a line that must stay byte for byte (an IPython magic)?"""
        if self.parts is None or not self.parts.frozen:
            return False
        return any(i in self.parts.frozen for i in range(self.first_line(statement), self.end_line(statement)))

    def indent_unit(self, line: int) -> str:
        """One indentation step for new blocks: the cell's own, where a cell has a block."""
        if self.parts is not None:
            part = self.parts.part(line)
            for statement in self.module.body:
                block = getattr(statement, "body", None)
                if isinstance(block, cst.IndentedBlock) and self.parts.part(self.first_line(statement)) == part:
                    return block.indent if block.indent is not None else self.module.default_indent
        return self.module.default_indent

    def blank_below(self, index: int) -> bool:
        """Is line ``index`` blank, or past the end of the text?"""
        lines = self.lines.lines
        return index >= len(lines) or (is_blank(lines[index]) and index not in self.lines.in_string)

    def code(self, statement: cst.CSTNode) -> str:
        if getattr(statement, "leading_lines", None):
            statement = statement.with_changes(leading_lines=())
        text = " ".join(self.module.code_for_node(statement).strip().split())
        text = text.split(" #", 1)[0] if isinstance(statement, cst.SimpleStatementLine) else text
        return text if len(text) <= 50 else text[:47] + "..."

    def where(self, statement: cst.CSTNode) -> str:
        line = self.first_line(statement)
        at = f"line {line + 1}" if self.parts is None else self.parts.describe(line)
        return f"{at} (`{self.code(statement)}`)"

    # --- plans -----------------------------------------------------------------------

    def plan(self, target: _Target) -> _Plan:
        """A rewrite for the target, or the reason there is none."""
        place = st.place_of(target.node, self.parents)
        if place is None:
            return _Plan.refused("it is not part of a statement the fixer can move")
        if FIX_OF[target.code] is Fix.SCALE_BY_REPLICAS:
            return self.plan_batch(target, place)
        statement = place.inner.statement
        if not isinstance(statement, cst.SimpleStatementLine):
            return _Plan.refused(
                f"it is part of a compound statement ({type(statement).__name__.lower()}); "
                "the fixer moves only simple statements"
            )
        if self.frozen(statement):
            return _Plan.refused(
                "it is on a line with IPython syntax (a magic), which the fixer keeps as it is; move it by hand")
        if target.code == "MG105":
            read = self.read_on_host(statement)
            if read is not None:
                return _Plan.refused(
                    f"the program reads it on the host (`{read}`), which a variable made in the scope (a "
                    "MirroredVariable) refuses with a TypeError; move it by hand and read it as "
                    "`int(x.read_value())`")
        binding = self.binding(place)
        if binding is None:
            later = self.later_binding(place.inner)
            if later is not None:
                return self.plan_after_strategy(place.inner, *later)
            if place.function is not None:
                return _Plan.refused(
                    f"no strategy is created before it in `{place.function.name.value}()` (nor passed to it); "
                    "the fixer does not follow the strategy across functions"
                )
            return _Plan.refused("no strategy is bound to a name before it in this block")
        name, at = binding
        lower = at[1] if at is not None and at[0] is place.inner.owner else -1
        planned = self.plan_adjacent(place.inner, name, lower)
        if planned is not None:
            return planned
        return self.plan_wrap(place.inner, name, lower)

    def read_on_host(self, statement: cst.SimpleStatementLine) -> str | None:
        """``int(step)``, ``float(step)`` of a name the statement binds: the variable is converted
        to a number in the host's code, which a MirroredVariable refuses (TF 2.21; ``.numpy()``
        and ``int(step.read_value())`` work). A fix that moved such a counter into the scope
        turned a script that ran into one that fails (tests/corpus_runtime)."""
        names = [target.target.value for small in statement.body if isinstance(small, cst.Assign)
                 for target in small.targets if isinstance(target.target, cst.Name)]
        for name in names:
            found = re.search(rf"\b(?:int|float|bool)\(\s*{re.escape(name)}\s*\)", self.text)
            if found:
                return found.group(0)
        return None

    def binding(self, place: st.Place) -> tuple[str, tuple[cst.CSTNode, int] | None] | None:
        """The nearest strategy bound before ``place`` in its function: (name, (block, index)),
        or (name, None) for a strategy parameter."""
        for level in place.levels:
            for index in range(level.index - 1, -1, -1):
                name = st.strategy_binding(level.body[index], self.strategy_names)
                if name is not None:
                    return name, (level.owner, index)
        params = st.strategy_params(place.function, self.configured_strategies)
        if params:
            return params[0], None
        return None

    def later_binding(self, level: st.Level) -> tuple[str, int] | None:
        for index in range(level.index + 1, len(level.body)):
            name = st.strategy_binding(level.body[index], self.strategy_names)
            if name is not None:
                return name, index
        return None

    def is_scope(self, statement: cst.CSTNode, name: str) -> bool:
        if name not in self._scope_names:
            self._scope_names[name] = st.scope_names(self.nodes, name)
        return st.scope_target(statement, name, self._scope_names[name])

    def with_feeders(self, body, first: int, last: int, lower: int) -> int:
        """Extend a run of statements back over the functional-API steps that feed it."""
        needed = set().union(*(st.reads(body[i]) for i in range(first, last + 1)))
        while first - 1 > lower:
            previous = body[first - 1]
            if (
                not isinstance(previous, cst.SimpleStatementLine)
                or not self.same_part(self.first_line(previous), self.first_line(body[first]))
                or self.frozen(previous)
                or id(previous) in self.flagged
                or not st.feeds_graph(previous)
                or not st.writes(previous) & needed
            ):
                break
            first -= 1
            needed |= st.reads(previous)
        return first

    def _take(self, body, first: int, last: int) -> tuple[int, int, list[int]]:
        """Lines of statements ``first..last`` with their comments, and blank lines to drop."""
        start = self.first_line(body[first]) - self.attached_comments(body[first])
        end = self.end_line(body[last])
        above = self.blank_run_above(start)
        tidy = above if above and (self.blank_below(end) or last == len(body) - 1) else []
        return start, end, tidy

    def _body_delta(self, with_node: cst.With) -> str:
        block = with_node.body
        assert isinstance(block, cst.IndentedBlock)
        return block.indent if block.indent is not None else self.module.default_indent

    def plan_adjacent(self, level: st.Level, name: str, lower: int) -> _Plan | None:
        body, index = level.body, level.index

        def movable(i: int) -> bool:
            return id(body[i]) in self.flagged and isinstance(body[i], cst.SimpleStatementLine)

        def beside(i: int, scope_line: int) -> bool:  # in the scope block's notebook cell
            return self.same_part(self.first_line(body[i]), scope_line)

        # Between the flagged statements, one that only describes their objects
        # (`model.summary()`) or goes on building them moves with them, in order
        # (their objects: the names they bind or read, imports aside).
        flagged = [i for i in range(len(body)) if movable(i)]
        objects = set().union(*(st.writes(body[i]) | st.reads(body[i]) for i in flagged)) - self.imported

        def describes(i: int) -> bool:  # or goes on building them (`model.add(...)`, an adapt())
            return not self.frozen(body[i]) and (st.only_reports_on(body[i], objects, self.loggers)
                                                 or st.only_builds(body[i], objects, self.imported)
                                                 or st.only_adapts(body[i], objects, self.imported))

        after = index
        while after < len(body) and (movable(after) or describes(after)):
            after += 1
        if (after < len(body) and self.is_scope(body[after], name)
                and all(beside(i, self.first_line(body[after])) for i in range(index, after))):
            scope = body[after]
            first = self.with_feeders(body, index, after - 1, lower)
            start, end, tidy = self._take(body, first, after - 1)
            block = scope.body
            to = self.first_line(block.body[0]) - len(block.body[0].leading_lines)
            text, origins = self.lines.move(start, end, to, self._body_delta(scope), tidy)
            return _Plan(text, origins, f"moved into the `with {name}.scope():` block below")
        before = index
        while before >= 0 and (movable(before) or describes(before)):
            before -= 1
        if (before > lower and before >= 0 and self.is_scope(body[before], name)
                and all(beside(i, self.end_line(body[before]) - 1) for i in range(before + 1, index + 1))):
            scope = body[before]
            last = index
            while last + 1 < len(body) and movable(last + 1) and beside(last + 1, self.end_line(scope) - 1):
                last += 1
            start, end, tidy = self._take(body, before + 1, last)
            to = self.end_line(scope) + self._footer_comments(scope)
            text, origins = self.lines.move(start, end, to, self._body_delta(scope), tidy)
            return _Plan(text, origins, f"moved into the `with {name}.scope():` block above")
        return None

    def _bound(self, body, first: int, last: int) -> set[str]:
        """Names the flagged statements ``first..last`` bind."""
        return set().union(*(st.writes(body[i]) for i in range(first, last + 1) if id(body[i]) in self.flagged))

    def _footer_comments(self, scope: cst.With) -> int:
        footer = list(scope.body.footer)
        while footer and footer[-1].comment is None:
            footer.pop()
        return len(footer)

    def plan_wrap(self, level: st.Level, name: str, lower: int) -> _Plan:
        body, index = level.body, level.index
        last = index
        probe = index + 1
        while probe < len(body):
            statement = body[probe]
            if (not self.same_part(self.first_line(statement), self.first_line(body[index]))
                    or self.frozen(statement)):
                break  # a new block stays in its notebook cell and leaves magics alone
            if id(statement) in self.flagged and isinstance(statement, cst.SimpleStatementLine):
                last = probe
            elif (st.only_builds(statement, self._bound(body, index, last), self.imported)
                  or st.only_adapts(statement, self._bound(body, index, last), self.imported)):
                last = probe  # `model.add(layers.Dense(8))`, an adapt() create weights: they go in with the model
            elif (
                not isinstance(statement, cst.SimpleStatementLine)
                or st.trains(statement)
                or st.strategy_binding(statement, self.strategy_names)
            ):
                break
            probe += 1
        first = self.with_feeders(body, index, last, lower)
        start = self.first_line(body[first])
        end = self.end_line(body[last])
        indent = self.lines.indentation(start)
        header = f"{indent}with {name}.scope():"
        text, origins = self.lines.wrap(start, end, header, self.indent_unit(start))
        return _Plan(text, origins, f"wrapped in a new `with {name}.scope():` block")

    def crossing_problem(self, moved: cst.CSTNode, statement: cst.CSTNode) -> str | None:
        """Why ``moved`` cannot move past ``statement``, or None."""
        bound, read = st.writes(moved), st.reads(moved)
        uses = (st.reads(statement) | st.writes(statement)) & bound
        if uses:
            return f"{self.where(statement)} uses `{sorted(uses)[0]}`"
        changes = st.writes(statement) & read
        if changes:
            return f"{self.where(statement)} changes `{sorted(changes)[0]}`, which it reads"
        output_ok = st.calls_only_libraries(moved, self.imported)
        for call in st.calls(statement):
            if not st.inert_call(call, output_ok=output_ok):
                callee = self.module.code_for_node(call.func).strip()
                return f"{self.where(statement)} calls `{callee}()`, which may have effects it depends on"
        return None

    def carries(self, statement: cst.CSTNode, objects: set[str]) -> bool:
        """May ``statement``, which a moved statement cannot pass, move with it instead: another
        flagged statement (it goes into the scope anyway), one that only describes the moved
        objects (``model.summary()``, a print or log of them), or one that goes on building
        them (``model.add(layers.Dense(8))``, ``model.layers[0].adapt(x)``: those create weights,
        which belong in the scope)?"""
        if not isinstance(statement, cst.SimpleStatementLine) or self.frozen(statement):
            return False
        return (id(statement) in self.flagged or st.only_reports_on(statement, objects, self.loggers)
                or st.only_builds(statement, objects, self.imported)
                or st.only_adapts(statement, objects, self.imported))

    def _runs(self, body, indices: list[int]) -> tuple[list[tuple[int, int]], list[int]]:
        """Line runs of the statements ``indices`` (in order) with their comments, blank lines
        between two of them kept inside the run, and the blank lines to drop (as :meth:`_take`)."""
        runs: list[tuple[int, int]] = []
        lasts: list[int] = []
        for index in indices:
            start, end, _ = self._take(body, index, index)
            if runs and all(self.blank_below(i) for i in range(runs[-1][1], start)):
                runs[-1] = (runs[-1][0], end)
                lasts[-1] = index
            else:
                runs.append((start, end))
                lasts.append(index)
        tidy: list[int] = []
        for (start, end), last in zip(runs, lasts):
            above = self.blank_run_above(start)
            if above and (self.blank_below(end) or last == len(body) - 1):
                tidy += above
        return runs, tidy

    def plan_after_strategy(self, level: st.Level, name: str, created: int) -> _Plan:
        body, index = level.body, level.index
        moved = body[index]
        if not self.same_part(self.first_line(moved), self.first_line(body[created])):
            return _Plan.refused(
                f"it runs before the strategy is created at {self.where(body[created])}; {CROSSES_CELLS}")
        # The statements that move: this one, and those between it and the strategy's creation
        # that it cannot pass but may take along (they keep their order).
        carried = [index]
        objects = set(st.writes(moved))
        for between in range(index + 1, created + 1):
            statement = body[between]
            problem = next(filter(None, (self.crossing_problem(body[i], statement) for i in carried)), None)
            if problem is None:
                continue
            if between < created and self.carries(statement, objects):
                carried.append(between)
                objects |= st.writes(statement)
                continue
            return _Plan.refused(
                f"it runs before the strategy is created at {self.where(body[created])} "
                f"and cannot move after it: {problem}"
            )
        # Into the first scope block after the creation that all of them can reach (taking
        # along what describes them on the way), or into a new block right after the creation.
        reaching, reached = list(carried), set(objects)
        probe = created + 1
        while probe < len(body):
            statement = body[probe]
            if not self.same_part(self.first_line(statement), self.first_line(body[created])):
                break
            if self.is_scope(statement, name):
                runs, tidy = self._runs(body, reaching)
                block = statement.body
                to = self.first_line(block.body[0]) - len(block.body[0].leading_lines)
                text, origins = self.lines.move_runs(runs, to, self._body_delta(statement), tidy)
                return _Plan(text, origins, f"moved after the strategy's creation{self._with(body, reaching)}, "
                                            f"into `with {name}.scope():`")
            if any(self.crossing_problem(body[i], statement) is not None for i in reaching):
                if not self.carries(statement, reached):
                    break
                reaching.append(probe)
                reached |= st.writes(statement)
            probe += 1
        runs, tidy = self._runs(body, carried)
        to = self.end_line(body[created])
        indent = self.lines.indentation(self.first_line(moved))
        header = f"{indent}with {name}.scope():"
        text, origins = self.lines.move_runs(runs, to, self.indent_unit(runs[0][0]), tidy, header=header)
        return _Plan(text, origins,
                     f"moved after the strategy's creation{self._with(body, carried)}, into a new `with {name}.scope():`")

    def _with(self, body, carried: list[int]) -> str:
        return "".join(f" with {self.code(body[i])}" for i in carried[1:2])

    def plan_batch(self, target: _Target, place: st.Place) -> _Plan:
        binding = self.binding(place)
        if binding is None:
            return _Plan.refused(
                "no strategy is created before it in the same function, so "
                "`num_replicas_in_sync` cannot be read there"
            )
        name = binding[0]
        finding = self.findings.get(target.key)
        if finding is not None and not finding.fixable:
            return _Plan.refused(
                "the batch is already a product with a fixed count; write "
                f"`{name}.num_replicas_in_sync` in place of that count by hand")
        node = target.node
        parent = self.parents.get(id(node))
        if isinstance(parent, cst.Call) and parent.func is node:
            return _Plan.refused(
                "the batch size is Keras's default (32), not written in the call; pass "
                f"`batch_size=<per-replica size> * {name}.num_replicas_in_sync` by hand"
            )
        expression = node.value if isinstance(node, cst.Arg) else node
        span = self.positions[expression]
        starts = [0]
        for line in self.lines.lines:
            starts.append(starts[-1] + len(line))
        begin = starts[span.start.line - 1] + span.start.column
        finish = starts[span.end.line - 1] + span.end.column
        source = self.text[begin:finish]
        atomic = (cst.Integer, cst.Name, cst.Attribute, cst.Call, cst.Subscript)
        if not isinstance(expression, atomic) and not expression.lpar:
            source = f"({source})"
        text = self.text[:begin] + f"{source} * {name}.num_replicas_in_sync" + self.text[finish:]
        if self.parts is not None and any(i in self.parts.frozen for i in range(span.start.line - 1, span.end.line)):
            return _Plan.refused(
                "it is on a line with IPython syntax (a magic), which the fixer keeps as it is; fix it by hand")
        # Characters change within lines, never line breaks: each line stays where it was.
        return _Plan(text, list(range(len(self.lines))), f"scaled by `{name}.num_replicas_in_sync`")
