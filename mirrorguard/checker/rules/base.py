"""What a rule is: a code, a name, its docs in ruff's shape, its cases (invalid
ones with their expected fix), its check over the semantic model, and the fix
`mirrorguard fix` applies with that fix's safety."""

from __future__ import annotations

import ast
import enum
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterator

from mirrorguard.checker.semantic import Effect, Exposure, SemanticModel
from mirrorguard.checker.semantic.positions import Positions

DOCS_URL = "https://github.com/mirrorguard/mirrorguard/blob/main/docs/rules.md#{code}"


@dataclass(frozen=True)
class Case:
    """A source snippet, the lines (1-based) where the rule must fire, and, for
    an invalid case of a fixable rule, the source its fix must produce
    (Fixit's ``expected_replacement``): the rule's docs, cases and fix are
    tested together (tests/checker/test_rule_fixes.py)."""

    source: str
    lines: tuple[int, ...] = ()
    fixed: str | None = None

    @property
    def code(self) -> str:
        return textwrap.dedent(self.source).lstrip("\n")

    @property
    def fixed_code(self) -> str | None:
        return None if self.fixed is None else textwrap.dedent(self.fixed).lstrip("\n")


@dataclass(frozen=True)
class Report:
    """A finding-to-be: the node to report (its whole span) and the message.

    ``fixable`` is False where the rule's fix would be wrong for this one finding (MG201's
    batch that is already a product with a fixed count: multiplying it again would scale it
    twice). Such a finding is never counted fixable, and `mirrorguard fix` leaves it."""

    node: ast.AST
    message: str
    fixable: bool = True


class Applicability(enum.Enum):
    """Whether a fix may be applied without asking (ruff's applicability)."""

    SAFE = "safe"  # keeps what the program means: applied by `mirrorguard fix`
    UNSAFE = "unsafe"  # changes what it computes: only with `--unsafe-fixes`


class Fix(enum.Enum):
    """How `mirrorguard fix` mends a finding of the rule, and how safe that is:
    a rule declares one, and the fixer, the docs' "Fix safety" line and the
    "N fixable" count all read it."""

    NONE = ("none", None)
    # Move the statement (with what it needs) into `with strategy.scope():`.
    MOVE_INTO_SCOPE = ("move-into-scope", Applicability.SAFE)
    # N becomes N * strategy.num_replicas_in_sync: a different global batch on many replicas.
    SCALE_BY_REPLICAS = ("scale-by-replicas", Applicability.UNSAFE)

    def __init__(self, label: str, applicability: Applicability | None) -> None:
        self.label = label
        self.applicability = applicability


class Context:
    """What a rule's check sees of one file: its semantic model and its text."""

    def __init__(self, model: SemanticModel, positions: Positions) -> None:
        self.model = model
        self.positions = positions
        self._memo: dict = {}

    def memo(self, key, compute: Callable[[], object]):
        """``compute()`` once per file for ``key``: answers two rules share."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def code(self, node: ast.AST) -> str:
        """The source of ``node`` as written, on one line, cut at 60 characters."""
        text = " ".join(self.positions.source(node).split())
        return text if len(text) <= 60 else text[:57] + "..."

    def callee(self, call: ast.AST) -> str:
        """``keras.Sequential(...)`` for a call, as the user spelled it."""
        if isinstance(call, ast.Call):
            return self.code(call.func) + ("(...)" if call.args or call.keywords else "()")
        return self.code(call)

    @property
    def scope(self) -> str:
        return f"{self.model.strategy_name}.scope()"

    def subject(self, exposure: Exposure) -> str:
        """What a scope finding names, as the user wrote it: the helper the effect
        is reached through (``bm2()`` after ``import build_model as bm2``),
        else the call itself (``keras.Sequential(...)``)."""
        return f"`{exposure.via}()`" if exposure.via else f"`{self.callee(exposure.site.node)}`"

    def outside_scope(self, exposure: Exposure, does: str, *, act: str, act_via: str = "call it",
                      subject: str | None = None, then: str = "") -> str:
        """The MG1xx message: "<subject> <does> outside `S`<then>; <act> inside `with S:`",
        where a helper's caller is told to ``act_via`` (call it inside) instead."""
        scope = self.scope
        return (f"{subject or self.subject(exposure)} {does} outside `{scope}`{then}; "
                f"{act_via if exposure.via else act} inside `with {scope}:`")


Check = Callable[[Context], Iterator[Report]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    docs: str
    fix: Fix = Fix.NONE
    check: Check | None = None
    # The rule's predicate over one call, when the rule is about something that
    # must run inside a strategy scope: the model follows it through helpers.
    effect: Effect | None = None
    valid: tuple[Case, ...] = field(default=())
    invalid: tuple[Case, ...] = field(default=())
    default_enabled: bool = True

    @property
    def help_uri(self) -> str:
        return DOCS_URL.format(code=self.code.lower())

    @property
    def fix_safety(self) -> str:
        """"safe", "unsafe" or "none": the rules table's column."""
        applicability = self.fix.applicability
        return applicability.value if applicability is not None else "none"

    def render_docs(self) -> str:
        fix_line = {
            "safe": "A safe fix is available (`mirrorguard fix`).",
            "unsafe": "An unsafe fix is available (`mirrorguard fix --unsafe-fixes`).",
            "none": "No automatic fix.",
        }[self.fix_safety]
        body = textwrap.dedent(self.docs).strip()
        return f"# {self.name} ({self.code})\n\n{self.summary}.\n\n{body}\n\n## Fix safety\n{fix_line}\n"
