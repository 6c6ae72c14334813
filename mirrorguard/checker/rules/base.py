"""What a rule is: a code, a name, its docs in ruff's shape, its cases, and a check."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Callable, Iterator

import libcst as cst

from mirrorguard.checker.analysis import Analysis

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
class Unit:
    """What a rule's check sees of one file."""

    module: cst.Module
    analysis: Analysis

    def code(self, node: cst.CSTNode) -> str:
        text = self.module.code_for_node(node).strip()
        text = " ".join(text.split())
        return text if len(text) <= 60 else text[:57] + "..."

    def callee(self, call: cst.CSTNode) -> str:
        """``keras.Sequential(...)`` for a call, as the user spelled it."""
        if isinstance(call, cst.Call):
            return self.code(call.func) + "(...)" if call.args else self.code(call.func) + "()"
        return self.code(call)

    @property
    def scope(self) -> str:
        return f"{self.analysis.strategy_name}.scope()"


# A check yields (item, message); an item has ``node`` (where to report) and
# ``top`` (the module-level statement holding it).
Check = Callable[[Unit], Iterator[tuple[object, str]]]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    summary: str
    docs: str
    fix: str  # "safe", "unsafe" or "none"
    check: Check | None = None
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
