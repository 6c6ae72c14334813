"""What the analysis records as it walks (events, contexts) and what it hands
to the rules (things outside a scope, unscaled batches), plus name helpers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator

import libcst as cst

BUILD, LOAD, COMPILE, OPTIMIZER, CALL, BATCH = "build", "load", "compile", "optimizer", "call", "batch"


@dataclass(eq=False)
class Event:
    kind: str
    node: cst.CSTNode
    context: Context
    in_scope: bool
    detail: str = ""
    targets: tuple[str, ...] = ()
    callee: tuple[str, ...] | None = None
    inline: bool = False  # an optimizer created inside compile(...) or another optimizer
    receiver: str | None = None  # compile: the model it is called on
    arg_refs: set[str] = field(default_factory=set)  # compile: names its arguments use
    value: cst.CSTNode | None = None  # batch: the batch-size expression
    report_node: cst.CSTNode | None = None
    per_replica: bool = False
    top: cst.CSTNode | None = None  # the module-level statement it is in
    seq: int = 0  # its place in the walk (bindings are numbered alike)
    entry: bool = False  # a call that starts the program: main() as a statement


@dataclass(eq=False)
class Context:
    """A function body, a lambda, or the module body."""

    name: str
    parent: Context | None
    class_name: str | None = None
    is_module: bool = False
    is_lambda: bool = False
    params: set[str] = field(default_factory=set)
    scope_depth: int = 0
    events: list[Event] = field(default_factory=list)
    owns_strategy: bool = False
    makes_strategy: bool = False  # constructs a tf.distribute strategy itself
    mentions_strategy: bool = False
    per_replica: bool = False
    loads: Counter = field(default_factory=Counter)
    stores: Counter = field(default_factory=Counter)
    inference_uses: Counter = field(default_factory=Counter)
    assignments: dict[str, list] = field(default_factory=dict)
    in_scope_refs: set[str] = field(default_factory=set)
    refs: set[str] = field(default_factory=set)
    call_sites: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class OutsideScope:
    """Something that must run inside ``strategy.scope()`` and does not."""

    kind: str  # BUILD, LOAD, COMPILE or OPTIMIZER
    node: cst.CSTNode
    via: str | None = None  # the file's own helper that does it, when reported at its call
    top: cst.CSTNode | None = None  # the module-level statement the node is in
    detail: str = ""  # the canonical API called, when called directly


@dataclass(frozen=True)
class UnscaledBatch:
    node: cst.CSTNode
    value: int | None
    top: cst.CSTNode | None = None


@dataclass
class Analysis:
    strategy_in_play: bool
    outside_scope: list[OutsideScope]
    unscaled_batches: list[UnscaledBatch]
    strategy_name: str
    # Qualified names of calls into imported modules (``models.build_model``):
    # what cross-file analysis may need summaries of.
    imported_calls: frozenset[str] = frozenset()


def dotted(node: cst.CSTNode) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def last_identifier(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def target_names(target: cst.CSTNode) -> Iterator[str]:
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, cst.Attribute):
        name = dotted(target)
        if name:
            yield name
    elif isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            yield from target_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from target_names(target.value)


def ref_key(node: cst.CSTNode) -> str | None:
    """The key a value is tracked under: ``x`` or ``self.x``."""
    if isinstance(node, cst.Name):
        return node.value
    if (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value in ("self", "cls")
    ):
        return "self." + node.attr.value
    return None
