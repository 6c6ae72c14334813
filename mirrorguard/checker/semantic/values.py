"""Constant values through names, attributes, parameters and simple arithmetic:
what a batch size is, and where it is written.

A value is a constant (``64``, ``BATCH = 32 * 2``, ``self.batch_size = 64``),
the replica count itself (``strategy.num_replicas_in_sync``), *scaled* by it
(multiplied: ``64 * strategy.num_replicas_in_sync``, a global batch),
*per replica* (divided by it, ``GLOBAL // strategy.num_replicas_in_sync``, or
``input_context.get_per_replica_batch_size(...)``), or unknown (a
configuration field, a call). Only where a value comes from decides which it
is; what it is called never does.
Names resolve to the bindings before the use in straight-line code, else to
every binding of the name. A parameter's values are those that reach it: its
default where a call leaves it out, and the arguments at the file's call sites
(:func:`parameter_origins`), each reported where it is written.
"""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, NamedTuple

from mirrorguard.checker.semantic.units import BindingKind, CallSite, Unit, argument_for, walk

if TYPE_CHECKING:
    from mirrorguard.checker.semantic.model import SemanticModel

_REPLICA_ATTRIBUTES = frozenset({"num_replicas_in_sync", "get_per_replica_batch_size"})
# Hugging Face TrainingArguments fields that are per device by that API's
# definition (its own train_batch_size multiplies them by the replicas): an API
# attribute, as num_replicas_in_sync is, not a name the user chose.
_PER_DEVICE_FIELDS = frozenset({
    "per_device_train_batch_size", "per_device_eval_batch_size", "per_gpu_train_batch_size", "per_gpu_eval_batch_size",
})
# Calls that hand back their first argument's number: int(G / n), tf.cast(n, tf.float32).
_SAME_NUMBER = frozenset({"int", "round", "math.floor", "math.ceil", "tensorflow.cast", "numpy.int32", "numpy.int64"})
_MAX_DEPTH = 12


class Kind(enum.Enum):
    CONSTANT = "constant"
    REPLICAS = "replicas"  # the replica count itself
    SCALED = "scaled"  # multiplied by the replica count: a global batch
    PER_REPLICA = "per replica"  # divided by the replica count, or get_per_replica_batch_size
    UNKNOWN = "unknown"


class Value(NamedTuple):
    kind: Kind
    number: int | None = None  # for constants, when one number is known


UNKNOWN = Value(Kind.UNKNOWN)
SCALED = Value(Kind.SCALED)
REPLICAS = Value(Kind.REPLICAS)
PER_REPLICA = Value(Kind.PER_REPLICA)
# Kinds that read the replica count: never a fixed number.
FROM_REPLICAS = frozenset({Kind.REPLICAS, Kind.SCALED, Kind.PER_REPLICA})


class Origin(NamedTuple):
    """A value that reaches a parameter, and the node where it is written."""

    value: Value
    node: ast.AST
    unit: Unit
    site: CallSite | None = None  # the call that passes it (None for the default)


def mentions_replicas(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr in _REPLICA_ATTRIBUTES for n in walk(node))


def value_of(node: ast.AST | None, unit: Unit, model: SemanticModel, depth: int = 0,
             order: int | None = None) -> Value:
    """The value of ``node`` as seen from ``unit``; ``order`` is where it is used."""
    if depth > _MAX_DEPTH or node is None:
        return UNKNOWN
    if isinstance(node, ast.Constant):
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return Value(Kind.CONSTANT, node.value)
        return UNKNOWN
    if isinstance(node, ast.Attribute):
        if node.attr == "num_replicas_in_sync":
            return REPLICAS
        if node.attr in _PER_DEVICE_FIELDS:
            return PER_REPLICA
        return _attribute_value(node, unit, model, depth)
    if isinstance(node, ast.BinOp):
        left = value_of(node.left, unit, model, depth + 1, order)
        right = value_of(node.right, unit, model, depth + 1, order)
        return _combine(left, right, node.op)
    if isinstance(node, ast.Name):
        return _name_value(node.id, unit, model, depth, order)
    if isinstance(node, ast.Subscript):
        return _entry_value(node.value, _string_key(node.slice), None, unit, model, depth, order)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "get_per_replica_batch_size":
            return PER_REPLICA
        if node.args and not isinstance(node.args[0], ast.Starred) and (
            (isinstance(func, ast.Name) and func.id in _SAME_NUMBER and not model.qualify(func))
            or any(q in _SAME_NUMBER for q in model.qualify(func))
        ):
            # int(G / strategy.num_replicas_in_sync), tf.cast(n, tf.float32): the argument's number
            return value_of(node.args[0], unit, model, depth + 1, order)
        if mentions_replicas(node):
            return _replicas_inside(node)
        if (isinstance(func, ast.Attribute) and func.attr == "get" and 1 <= len(node.args) <= 2
                and not node.keywords):
            # cfg.get("batch_size", 64): the entry, else the default
            default = node.args[1] if len(node.args) == 2 else None
            return _entry_value(func.value, _string_key(node.args[0]), default, unit, model, depth, order)
    return UNKNOWN


def _replicas_inside(node: ast.AST) -> Value:
    """A call that reads the replica count in its arguments (``max(1, G // n)``):
    per replica when it divides by it, else scaled."""
    for inner in walk(node):
        if (isinstance(inner, ast.BinOp) and isinstance(inner.op, (ast.Div, ast.FloorDiv))
                and mentions_replicas(inner.right)):
            return PER_REPLICA
    return SCALED


def _attribute_value(node: ast.Attribute, unit: Unit, model: SemanticModel, depth: int) -> Value:
    """``self.batch_size`` set in any method of the class; ``config.batch`` set at module level."""
    key = None
    if isinstance(node.value, ast.Name):
        key = f"{node.value.id}.{node.attr}"
    if key is None:
        return UNKNOWN
    if key.startswith(("self.", "cls.")) and unit.class_name:
        owners = [u for u in model.units if u.class_name == unit.class_name]
    else:
        owners = [model.module]
        instance_of = model.instance_class(node.value.id)
        if instance_of is not None and not any(key in u.bindings for u in owners):
            # cfg = TrainConfig(); cfg.batch_size: what the call passes, else the class's default
            return _field_value(instance_of, node.attr, node.value.id, model, depth)  # type: ignore[union-attr]
    bindings = [(owner, b) for owner in owners for b in owner.bindings.get(key, ())]
    if not bindings:
        return UNKNOWN
    return _merge([(b, owner) for owner, b in bindings], model, depth)


def _field_value(class_name: str, field_name: str, instance: str, model: SemanticModel, depth: int) -> Value:
    calls = [
        site for unit in model.units for site in unit.calls
        if instance in site.targets and isinstance(site.node.func, ast.Name) and site.node.func.id == class_name
    ]
    if len(calls) != 1:
        return UNKNOWN
    (site,) = calls
    keyword = site.keyword(field_name)
    if keyword is not None:
        return value_of(keyword.value, site.unit, model, depth + 1)
    if site.node.args or any(k.arg is None for k in site.node.keywords):
        return UNKNOWN  # positional or **kwargs: which field gets what is not read here
    bindings = model.module.bindings.get(f"{class_name}.{field_name}", ())
    return _merge([(b, model.module) for b in bindings], model, depth) if bindings else UNKNOWN


def _name_value(name: str, unit: Unit, model: SemanticModel, depth: int, order: int | None) -> Value:
    scope: Unit | None = unit
    while scope is not None:
        if name in scope.params:
            return UNKNOWN
        if name in scope.bindings:
            break
        scope = scope.parent
    if scope is None:
        scope = model.module
        if name not in scope.bindings:
            return UNKNOWN
    bindings = scope.bindings[name]
    if scope is unit and order is not None:
        # In straight-line code the value is the last one bound before the
        # use: BATCH = 64; ds.batch(BATCH); BATCH = 16 * replicas.
        before = [b for b in bindings if b.order < order]
        if before:
            last = before[-1]
            folded = _fold_augmented(before, scope, model, depth)
            if folded is not None:
                return folded
            if last.kind is BindingKind.ASSIGNMENT:
                # The last binding, and those on the other branches of its if/try:
                # try: BATCH = 16 * replicas / except: BATCH = 16.
                bindings = [b for b in before if b is last or b.never_together_with(last)]
            else:
                bindings = before
        return _merge([(b, scope) for b in bindings], model, depth)
    # Read from an enclosing scope: every binding there may reach it; the
    # answer is the same for every reader, so it is worked out once.
    key = ("value", id(scope), name)
    cached = model.cache.get(key)
    if cached is None:
        cached = model.cache[key] = _merge([(b, scope) for b in bindings], model, depth)
    return cached


def _string_key(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def dicts_behind(container: ast.AST, unit: Unit, model: SemanticModel,
                 depth: int = 0) -> list[tuple[ast.Dict, Unit]] | None:
    """The dict literals a name holds: ``cfg = {...}`` in its scope or an enclosing
    one, or what the file's calls pass for a parameter (``run(default_config)``).
    None when any value it may hold is not a dict literal."""
    if depth > _MAX_DEPTH or not isinstance(container, ast.Name):
        return None
    name = container.id
    scope: Unit | None = unit
    while scope is not None and name not in scope.params and name not in scope.bindings:
        scope = scope.parent
    if scope is None:
        return None
    if name in scope.params:
        found: list[tuple[ast.Dict, Unit]] = []
        for site in scope.callers:
            argument = argument_for(site, scope, name)
            if argument is None:
                argument = scope.defaults.get(name)
                home = scope.parent or model.module
            else:
                home = site.unit
            if isinstance(argument, ast.Dict):
                found.append((argument, home))
                continue
            behind = dicts_behind(argument, home, model, depth + 1) if argument is not None else None
            if behind is None:
                return None
            found.extend(behind)
        return found or None
    found = []
    for binding in scope.bindings[name]:
        if binding.kind is not BindingKind.ASSIGNMENT or not isinstance(binding.value, ast.Dict):
            return None
        found.append((binding.value, scope))
    return found


def _entry_value(container: ast.AST, key: str | None, default: ast.AST | None, unit: Unit,
                 model: SemanticModel, depth: int, order: int | None) -> Value:
    """``cfg["batch_size"]`` / ``cfg.get("batch_size", 64)`` of a dict literal the name holds."""
    if key is None:
        return UNKNOWN
    dicts = dicts_behind(container, unit, model, depth + 1)
    if not dicts:
        return UNKNOWN
    values = []
    for literal, home in dicts:
        entry = dict_entry(literal, key)
        if entry is _SPREAD:
            return UNKNOWN
        if entry is None:
            if default is None:
                return UNKNOWN
            values.append(value_of(default, unit, model, depth + 1, order))
        else:
            values.append(value_of(entry, home, model, depth + 1))
    merged = _merge_kinds(values)
    if merged is not None:
        return merged
    if all(v.kind is Kind.CONSTANT for v in values):
        numbers = {v.number for v in values}
        return Value(Kind.CONSTANT, numbers.pop() if len(numbers) == 1 else None)
    return UNKNOWN


_SPREAD = ast.Constant(value=None)  # a ``**other`` in the literal: any key may come from it


def dict_entry(literal: ast.Dict, key: str) -> ast.expr | None:
    """The value ``literal`` gives ``key`` (the last one written), None when it
    has none, ``_SPREAD`` when a ``**`` spread may supply it."""
    found = None
    for k, v in zip(literal.keys, literal.values):
        if k is None:
            return _SPREAD
        if _string_key(k) == key:
            found = v
    return found


def _merge_kinds(values: list[Value]) -> Value | None:
    """The value of a name that may hold any of ``values``, when one of them
    reads the replica count (else None: the caller merges the numbers).

    Scaled on any path counts as scaled (``try: B = 16 * replicas`` / ``except:
    B = 16``): a batch that may be global is not reported as unscaled. Per
    replica only when every path is: a per-replica finding must be sure."""
    kinds = {v.kind for v in values}
    if not kinds & FROM_REPLICAS:
        return None
    if Kind.SCALED in kinds and Kind.PER_REPLICA not in kinds:
        return SCALED
    if kinds == {Kind.PER_REPLICA}:
        return PER_REPLICA
    if kinds == {Kind.REPLICAS}:
        return REPLICAS
    return UNKNOWN


def straight_augmented_run(before: list) -> list | None:
    """``BATCH = 64`` then ``BATCH *= 2`` (and more), all in one straight line of code: the
    assignment and the augmented bindings after it, when the last binding is augmented."""
    if not before or before[-1].kind is not BindingKind.AUGMENTED:
        return None
    start = len(before) - 1
    while start >= 0 and before[start].kind is BindingKind.AUGMENTED:
        start -= 1
    run = before[start:]
    if start < 0 or run[0].kind is not BindingKind.ASSIGNMENT or run[0].value is None:
        return None
    if any(b.branches != run[0].branches or b.augmented is None for b in run[1:]):
        return None  # an `if` may skip one of them: the value is not one number
    return run


def _fold_augmented(before: list, scope: Unit, model: SemanticModel, depth: int) -> Value | None:
    """The value of ``BATCH = 64; BATCH *= 2``: 128 (``*= strategy.num_replicas_in_sync``: scaled)."""
    run = straight_augmented_run(before)
    if run is None:
        return None
    value = value_of(run[0].value, scope, model, depth + 1)
    for binding in run[1:]:
        value = _combine(value, value_of(binding.value, scope, model, depth + 1), binding.augmented.op)
    return value


def _merge(bindings, model: SemanticModel, depth: int) -> Value:
    verdicts: list[tuple[bool, Value]] = []  # (augmented?, value)
    for binding, scope in bindings:
        if binding.kind not in (BindingKind.ASSIGNMENT, BindingKind.AUGMENTED) or binding.value is None:
            return UNKNOWN
        augmented = binding.kind is BindingKind.AUGMENTED
        verdicts.append((augmented, value_of(binding.value, scope, model, depth + 1)))
    merged = _merge_kinds([v for _, v in verdicts])
    if merged is not None:
        return merged
    if verdicts and all(v.kind is Kind.CONSTANT for _, v in verdicts):
        numbers = {v.number for augmented, v in verdicts if not augmented}
        has_augmented = any(augmented for augmented, _ in verdicts)
        return Value(Kind.CONSTANT, numbers.pop() if len(numbers) == 1 and not has_augmented else None)
    return UNKNOWN


def parameter_origins(param: str, function: Unit, model: SemanticModel) -> list[Origin]:
    """The values that reach ``param`` of ``function``: each call site's argument
    and, where a call leaves it out (or no call is in the file), the default."""
    origins: list[Origin] = []
    default = function.defaults.get(param)
    default_reaches = not function.callers
    for site in function.callers:
        argument = argument_for(site, function, param)
        if argument is None:
            if any(k.arg is None for k in site.node.keywords) or any(
                isinstance(a, ast.Starred) for a in site.node.args
            ):
                continue  # **kwargs / *args: what reaches it is unknown
            default_reaches = True
            continue
        origins.append(Origin(value_of(argument, site.unit, model, order=site.order), argument, site.unit, site))
    if default is not None and default_reaches:
        origins.append(Origin(value_of(default, function.parent or model.module, model), default, function))
    return origins


def _combine(left: Value, right: Value, op: ast.operator) -> Value:
    kinds = (left.kind, right.kind)
    if any(k in FROM_REPLICAS for k in kinds):
        return _combine_with_replicas(left.kind, right.kind, op)
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


def _combine_with_replicas(left: Kind, right: Kind, op: ast.operator) -> Value:
    """Arithmetic where one side reads the replica count: ``PER * n`` is a
    global batch, ``GLOBAL // n`` a per-replica one; ``GLOBAL * 4`` stays global."""
    if isinstance(op, ast.Mult):
        if Kind.REPLICAS in (left, right):
            return SCALED  # anything times the replica count
        if Kind.SCALED in (left, right) and Kind.PER_REPLICA not in (left, right):
            return SCALED
        if Kind.PER_REPLICA in (left, right) and Kind.SCALED not in (left, right):
            return PER_REPLICA
        return UNKNOWN
    if isinstance(op, (ast.Div, ast.FloorDiv)):
        if right is Kind.REPLICAS and left is not Kind.REPLICAS:
            return PER_REPLICA
        if right in (Kind.CONSTANT, Kind.UNKNOWN) and left in (Kind.SCALED, Kind.PER_REPLICA):
            return Value(left)  # GLOBAL // 2: still global
        return UNKNOWN
    if isinstance(op, (ast.Add, ast.Sub)):
        if Kind.REPLICAS in (left, right):
            return UNKNOWN
        kinds = {left, right} & FROM_REPLICAS
        if len(kinds) == 1:
            return Value(kinds.pop())
        return UNKNOWN
    return UNKNOWN
