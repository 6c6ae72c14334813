"""What the batch rules share: where a call sets a batch size, whether that
batch is the global batch the strategy splits, and which of MG201 and MG202
a batch of the wrong kind belongs to (MG202 takes precedence).

MG201 asks :func:`unscaled_global` and :func:`constant_sizes`; MG202 asks
:func:`mismatch`. Neither rule imports the other.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Context
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit, dataflow, walk
from mirrorguard.checker.semantic.distribute import PER_REPLICA_PARAMS
from mirrorguard.checker.semantic.values import Kind, Value, dict_entry, dicts_behind, parameter_origins, value_of

# Calls followed by one of these on the same chain batch for speed, not for
# the global batch: ds.batch(1024).map(vectorize).unbatch().
_UNBATCHING = frozenset({"unbatch", "rebatch"})


@dataclass(frozen=True)
class BatchSize:
    """Where a call sets a global batch size: the node to report and the size's expression.

    ``expression`` is None when the call leaves Keras's default (32) in place.
    """

    report: ast.AST
    expression: ast.expr | None


def batch_size_of(site: CallSite, model: SemanticModel) -> BatchSize | None:
    """The global batch size a call sets, if it is one of the batching spellings."""
    method = site.method
    qualified = site.qualified
    if any(q in api.DATASET_FROM_DIRECTORY for q in qualified):
        return _argument(site, None)
    for name, position in api.BATCH_FUNCTIONS.items():
        if name in qualified:
            keyword = "bucket_batch_sizes" if name.endswith("bucket_by_sequence_length") else "batch_size"
            return _argument(site, position, keyword)
    if method is None or qualified:
        return None
    if method in api.BATCH_METHODS:
        return _argument(site, 0)
    if method == "bucket_by_sequence_length":
        return _argument(site, 2, "bucket_batch_sizes")
    if method in api.HF_BATCH_METHODS:
        return _argument(site, api.HF_BATCH_METHODS[method])
    if method in api.BATCH_SIZE_POSITION:
        found = _argument(site, api.BATCH_SIZE_POSITION[method])
        # fit's default batch is the global batch of training; evaluate's only measures.
        if found is None and method == "fit" and _arrays_with_default_batch(site, model):
            return BatchSize(site.node.func, None)
        return found
    return None


def _argument(site: CallSite, position: int | None, keyword: str = "batch_size") -> BatchSize | None:
    found = site.keyword(keyword)
    if found is not None:
        return BatchSize(found, found.value)
    if position is None:
        return None
    args = site.node.args
    if any(isinstance(a, ast.Starred) for a in args[: position + 1]) or len(args) <= position:
        return None
    return BatchSize(args[position], args[position])


def _arrays_with_default_batch(site: CallSite, model: SemanticModel) -> bool:
    """``model.fit(x_train, y_train)``: arrays, no batch_size, no steps: Keras batches by 32.

    Not a ``fit`` of the file's own trainer class, nor one whose first argument is a dataset."""
    if model.callees(site):
        return False
    node = site.node
    if node.args and _is_dataset(node.args[0], site, model):
        return False
    if any(k.arg in ("batch_size", "steps_per_epoch", "steps") or k.arg is None for k in node.keywords):
        return False
    if any(isinstance(a, ast.Starred) for a in node.args):
        return False
    has_y = len(node.args) >= 2 or site.keyword("y") is not None
    return has_y and not (len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value is None)


_DATASET_METHODS = frozenset({"batch", "padded_batch", "prefetch", "shuffle", "map", "repeat", "cache", "take"})


def _is_dataset(node: ast.expr, site: CallSite, model: SemanticModel) -> bool:
    """A ``tf.data`` pipeline: built here, or bound to a name that one was bound to."""
    if isinstance(node, ast.Name):
        bindings = [b for b in site.unit.bindings.get(node.id, ()) if b.value is not None]
        return any(_is_dataset(b.value, site, model) for b in bindings[-1:])
    if isinstance(node, ast.Call):
        if any(q.startswith("tensorflow.data.") for q in model.qualify(node.func)):
            return True
        return isinstance(node.func, ast.Attribute) and node.func.attr in _DATASET_METHODS
    return False


def judged(site: CallSite, model: SemanticModel) -> bool:
    """Is this batch the global batch the strategy splits? Not when it runs per
    replica (an input function), sits in the no-strategy branch of
    ``if strategy: ... else: ...``, is batched again or unbatched later, only
    feeds a layer's ``adapt()``, or only a host-side ``for`` loop."""
    if model.runs_per_replica(site) or site.single_device:
        return False
    if model.is_estimator_input_fn(site.unit):
        return False  # an Estimator's input_fn: the Estimator batches per replica itself
    if model.is_element_function(site.unit) or site.is_inside(lambda o: o.method in api.ELEMENT_FUNCTION_METHODS):
        return False  # flat_map(lambda w: w.batch(WINDOW)): batches one window, not the dataset
    if site.chained and (_UNBATCHING.intersection(site.chained) or api.BATCH_METHODS.intersection(site.chained)):
        return False
    if site.iterated or site.is_inside(lambda outer: outer.method == "adapt"):
        return False
    if dataflow.gathered_on_host(site):
        return False  # next(iter(ids_ds.batch(N))).numpy(): gathered on the host
    if _for_unreplicated_model(site, model):
        return False  # the deliberately unreplicated copy's own evaluate/predict
    if site.method in api.BATCH_SIZE_POSITION:
        return True  # fit/evaluate: the batch is used right there
    return dataflow.batch_reaches_strategy(site, model)


def _for_unreplicated_model(site: CallSite, model: SemanticModel) -> bool:
    """``unreplicated.evaluate(x, y, batch_size=64)``, ``unreplicated.predict(ds.batch(8))``:
    batches of a model kept out of the strategy on purpose (MG101's exemption)."""
    unreplicated = model.unreplicated_names
    if not unreplicated:
        return False
    call: CallSite | None = site
    while call is not None:
        if call.method in dataflow.STRATEGY_SINKS and call.receiver is not None:
            return model.holds_unreplicated(call.unit, call.receiver, call.order)
        call = call.inside_call
    return False


def constant_sizes(found: BatchSize, site: CallSite, unit: Unit,
                   model: SemanticModel) -> Iterator[tuple[ast.AST, Value]]:
    """Each constant that sets this batch: (node to report, value)."""
    expression = found.expression
    if expression is None:
        yield found.report, Value(Kind.CONSTANT, api.KERAS_DEFAULT_BATCH_SIZE)
        return
    if isinstance(expression, (ast.List, ast.Tuple)):  # bucket_batch_sizes=[64, 64, 32]
        values = [value_of(e, unit, model, order=site.order) for e in expression.elts]
        if values and all(v.kind is Kind.CONSTANT for v in values):
            yield found.report, Value(Kind.CONSTANT)
        return
    value = value_of(expression, unit, model, order=site.order)
    if value.kind is Kind.CONSTANT:
        yield found.report, value
    elif isinstance(expression, ast.Name) and expression.id in unit.params:
        # make_dataset(x, 32): judged by the values that reach the parameter,
        # each reported where it is written.
        for origin in parameter_origins(expression.id, unit, model):
            if origin.value.kind is Kind.CONSTANT:
                # A literal at a call site is reported there; a default, at the batch.
                yield (found.report if origin.unit is unit else origin.node), origin.value


# Names that say which batch they hold.
_SAYS_PER_REPLICA = re.compile(r"(?i)per_?replica|per_?(?:gpu|device|core|tpu|worker)|replica_batch|batch_per")
_SAYS_GLOBAL = re.compile(r"(?i)global")
_MAX_DEPTH = 8


def _names_behind(node: ast.AST, unit: Unit, model: SemanticModel, depth: int = 0) -> Iterator[ast.AST]:
    """``node`` and, through the last binding of each name it reads, the expressions behind it."""
    yield node
    if depth > _MAX_DEPTH:
        return
    # cfg["GLOBAL"] says what that entry holds, not its siblings ({"PER": 256 // n, "GLOBAL": 256}).
    entries: set[int] = set()
    for inner in walk(node):
        if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name):
            key = inner.slice.value if isinstance(inner.slice, ast.Constant) else None
            dicts = dicts_behind(inner.value, unit, model) if isinstance(key, str) else None
            if dicts:
                entries.add(id(inner.value))
                for literal, home in dicts:
                    entry = dict_entry(literal, key)
                    if isinstance(entry, ast.expr) and not (isinstance(entry, ast.Constant) and entry.value is None):
                        yield from _names_behind(entry, home, model, depth + 1)
    for inner in walk(node):
        if isinstance(inner, ast.Name) and id(inner) not in entries:
            scope: Unit | None = unit
            while scope is not None and inner.id not in scope.bindings:
                scope = scope.parent
            if scope is not None and scope.bindings[inner.id][-1].value is not None:
                yield from _names_behind(scope.bindings[inner.id][-1].value, scope, model, depth + 1)


def _reads(nodes: list[ast.AST], pattern: re.Pattern | None = None, attribute: str | None = None) -> bool:
    for node in nodes:
        for inner in walk(node):
            if pattern is not None and isinstance(inner, (ast.Name, ast.Attribute)):
                name = inner.id if isinstance(inner, ast.Name) else inner.attr
                if pattern.search(name):
                    return True
            if attribute is not None and isinstance(inner, ast.Attribute) and inner.attr == attribute:
                return True
    return False


def _divides_by_replicas(nodes: list[ast.AST]) -> bool:
    """``GLOBAL // strategy.num_replicas_in_sync``: a per-replica value."""
    return any(
        isinstance(inner, ast.BinOp) and isinstance(inner.op, (ast.Div, ast.FloorDiv))
        and _reads([inner.right], attribute="num_replicas_in_sync")
        for node in nodes
        for inner in walk(node)
    )


def _input_context_name(unit: Unit) -> str:
    current: Unit | None = unit
    while current is not None and not current.is_module:
        for param in current.params:
            if param in PER_REPLICA_PARAMS or "context" in param.lower():
                return param
        current = current.parent
    return "input_context"


def mismatch(site: CallSite, found: BatchSize, context: Context) -> str | None:
    """Why the batch size is of the wrong kind for where it is used (MG202's
    message), or None. Worked out once per call: MG201 asks too."""
    return context.memo(("MG202", id(site)), lambda: _mismatch(site, found, context))


def _mismatch(site: CallSite, found: BatchSize, context: Context) -> str | None:
    expression = found.expression
    if expression is None or isinstance(expression, ast.Constant):
        return None  # a literal says nothing about which batch it means
    model = context.model
    behind = list(_names_behind(expression, site.unit, model))
    size = context.code(expression)
    if model.runs_per_replica(site):
        if _reads(behind, attribute="get_per_replica_batch_size"):
            return None
        if _reads([expression], _SAYS_PER_REPLICA) or _divides_by_replicas(behind):
            return None
        if _reads(behind, attribute="num_replicas_in_sync") or _reads(behind, _SAYS_GLOBAL):
            ctx = _input_context_name(site.unit)
            return (f"`{size}` is the global batch size, but this input function runs once per input "
                    f"pipeline and each replica takes what it batches; batch with "
                    f"`{ctx}.get_per_replica_batch_size({size})`")
        return None
    if not judged(site, model):
        return None
    if _reads(behind, attribute="num_replicas_in_sync") and not _divides_by_replicas(behind):
        return None  # scaled to the global batch
    if _reads(behind, _SAYS_PER_REPLICA) or _divides_by_replicas(behind):
        strategy = model.strategy_name
        return (f"`{size}` is a per-replica batch size, but this batch is the global batch "
                f"`{strategy}` splits across replicas; batch with `{size} * {strategy}.num_replicas_in_sync`")
    return None


def unscaled_global(site: CallSite, found: BatchSize, context: Context) -> bool:
    """MG201's question: is this a judged global batch that MG202 does not
    claim? A per-replica value in a global position is MG202's finding, and
    its advice; MG201 would say the same batch twice."""
    return judged(site, context.model) and mismatch(site, found, context) is None
