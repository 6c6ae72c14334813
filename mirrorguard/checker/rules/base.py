"""What a rule is: a code, a name, its docs in ruff's shape, its cases, its
check over the semantic model, and how `mirrorguard fix` mends it."""

from __future__ import annotations

import ast
import enum
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterator

from mirrorguard.checker.semantic import Effect, SemanticModel
from mirrorguard.checker.semantic.positions import Positions

DOCS_URL = "https://github.com/mirrorguard/mirrorguard/blob/main/docs/rules.md#{code}"


@dataclass(frozen=True)
class Case:
    """A source snippet and the lines (1-based) where the rule must fire."""

    source: str
    lines: tuple[int, ...] = ()

    @property
    def code(self) -> str:
        return textwrap.dedent(self.source).lstrip("\n")


@dataclass(frozen=True)
class Report:
    """A finding-to-be: the node to report (its whole span) and the message."""

    node: ast.AST
    message: str


class FixHook(enum.Enum):
    """How `mirrorguard fix` mends a finding of the rule."""

    NONE = "none"
    MOVE_INTO_SCOPE = "move-into-scope"  # move the statement into `with strategy.scope():`
    SCALE_BY_REPLICAS = "scale-by-replicas"  # N becomes N * strategy.num_replicas_in_sync


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


Check = Callable[[Context], Iterator[Report]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    docs: str
    fix: str  # "safe", "unsafe" or "none"
    check: Check | None = None
    # The rule's predicate over one call, when the rule is about something that
    # must run inside a strategy scope: the model follows it through helpers.
    effect: Effect | None = None
    fix_hook: FixHook = FixHook.NONE
    valid: tuple[Case, ...] = field(default=())
    invalid: tuple[Case, ...] = field(default=())
    default_enabled: bool = True

    @property
    def help_uri(self) -> str:
        return DOCS_URL.format(code=self.code.lower())

    def render_docs(self) -> str:
        fix_line = {
            "safe": "A safe fix is available (`mirrorguard fix`).",
            "unsafe": "An unsafe fix is available (`mirrorguard fix --unsafe-fixes`).",
            "none": "No automatic fix.",
        }[self.fix]
        body = textwrap.dedent(self.docs).strip()
        return f"# {self.name} ({self.code})\n\n{self.summary}.\n\n{body}\n\n## Fix safety\n{fix_line}\n"
