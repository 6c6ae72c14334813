"""Constant values through names and simple arithmetic: what a batch size is.

A value is a constant (``64``, ``BATCH = 32 * 2``), *scaled* by the replica
count (anything that reads ``num_replicas_in_sync`` or
``get_per_replica_batch_size``), or unknown (a parameter, a configuration
field, a call). Names resolve to the bindings before the use in straight-line
code, else to every binding of the name.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass

from mirrorguard.checker.semantic.units import BindingKind, Unit

_REPLICA_ATTRIBUTES = frozenset({"num_replicas_in_sync", "get_per_replica_batch_size"})
_MAX_DEPTH = 12


class Kind(enum.Enum):
    CONSTANT = "constant"
    SCALED = "scaled"  # derived from the replica count
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Value:
    kind: Kind
    number: int | None = None  # for constants, when one number is known


UNKNOWN = Value(Kind.UNKNOWN)
SCALED = Value(Kind.SCALED)


def mentions_replicas(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in _REPLICA_ATTRIBUTES for n in ast.walk(node))


def value_of(node: ast.AST | None, unit: Unit, module: Unit, depth: int = 0, order: int | None = None) -> Value:
    """The value of ``node`` as seen from ``unit``; ``order`` is where it is used."""
    if depth > _MAX_DEPTH or node is None:
        return UNKNOWN
    if isinstance(node, ast.Constant):
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return Value(Kind.CONSTANT, node.value)
        return UNKNOWN
    if isinstance(node, ast.Attribute):
        return SCALED if node.attr == "num_replicas_in_sync" else UNKNOWN
    if isinstance(node, ast.BinOp):
        left = value_of(node.left, unit, module, depth + 1, order)
        right = value_of(node.right, unit, module, depth + 1, order)
        return _combine(left, right, node.op)
    if isinstance(node, ast.Name):
        return _name_value(node.id, unit, module, depth, order)
    if isinstance(node, ast.Call):
        if mentions_replicas(node):
            return SCALED
        # int(64): a constant in disguise
        if isinstance(node.func, ast.Name) and node.func.id == "int" and len(node.args) == 1 and not node.keywords:
            return value_of(node.args[0], unit, module, depth + 1, order)
    return UNKNOWN


def _name_value(name: str, unit: Unit, module: Unit, depth: int, order: int | None) -> Value:
    scope: Unit | None = unit
    while scope is not None:
        if name in scope.params:
            return UNKNOWN
        if name in scope.bindings:
            break
        scope = scope.parent
    if scope is None:
        scope = module
        if name not in scope.bindings:
            return UNKNOWN
    bindings = scope.bindings[name]
    if scope is unit and order is not None:
        # In straight-line code the value is the last one bound before the
        # use: BATCH = 64; ds.batch(BATCH); BATCH = 16 * replicas.
        before = [b for b in bindings if b.order < order]
        if before:
            last = before[-1]
            bindings = [last] if last.kind is BindingKind.ASSIGNMENT else before
    verdicts: list[tuple[bool, Value]] = []  # (augmented?, value)
    for binding in bindings:
        if binding.kind not in (BindingKind.ASSIGNMENT, BindingKind.AUGMENTED) or binding.value is None:
            return UNKNOWN
        augmented = binding.kind is BindingKind.AUGMENTED
        verdicts.append((augmented, value_of(binding.value, scope, module, depth + 1)))
    if any(v.kind is Kind.SCALED for _, v in verdicts):
        return SCALED
    if all(v.kind is Kind.CONSTANT for _, v in verdicts):
        numbers = {v.number for augmented, v in verdicts if not augmented}
        has_augmented = any(augmented for augmented, _ in verdicts)
        return Value(Kind.CONSTANT, numbers.pop() if len(numbers) == 1 and not has_augmented else None)
    return UNKNOWN


def _combine(left: Value, right: Value, op: ast.operator) -> Value:
    if Kind.SCALED in (left.kind, right.kind):
        return SCALED
    if left.kind is not Kind.CONSTANT or right.kind is not Kind.CONSTANT:
        return UNKNOWN
    a, b = left.number, right.number
    if a is None or b is None:
        return Value(Kind.CONSTANT)
    if isinstance(op, ast.Mult):
        return Value(Kind.CONSTANT, a * b)
    if isinstance(op, ast.Add):
        return Value(Kind.CONSTANT, a + b)
    if isinstance(op, ast.Sub):
        return Value(Kind.CONSTANT, a - b)
    if isinstance(op, ast.FloorDiv) and b:
        return Value(Kind.CONSTANT, a // b)
    if isinstance(op, ast.Pow) and 0 <= b < 64:
        return Value(Kind.CONSTANT, a ** b)
    if isinstance(op, ast.LShift):
        return Value(Kind.CONSTANT, a << b if 0 <= b < 64 else None)
    return UNKNOWN
