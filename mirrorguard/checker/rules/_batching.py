"""What the batch rules share: where a call sets a batch size, whether that
batch is the global batch the strategy splits, and which of MG201 and MG202
a batch of the wrong kind belongs to (MG202 takes precedence).

MG201 asks :func:`unscaled_global` and :func:`constant_sizes`; MG202 asks
:func:`mismatch`. Neither rule imports the other.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterator, NamedTuple

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Context
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit, dataflow
from mirrorguard.checker.semantic.distribute import PER_REPLICA_PARAMS
from mirrorguard.checker.semantic.values import Kind, Value, parameter_origins, straight_augmented_run, value_of


# A named tuple, not a frozen dataclass: far cheaper to generate at import
# (see mirrorguard/checker/semantic/units.py).
class BatchSize(NamedTuple):
    """Where a call sets a global batch size: the node to report and the size's expression.

    ``expression`` is None when the call leaves Keras's default (32) in place.
    """

    report: ast.AST
    expression: ast.expr | None


def batch_size_of(site: CallSite, model: SemanticModel) -> BatchSize | None:
    """The global batch size a call sets, if it is one of the batching spellings.

    Worked out once per call: MG201 and MG202 both ask it of every call of the strategy's code."""
    key = ("batch size", id(site))
    if key not in model.cache:
        model.cache[key] = _batch_size_of(site, model)
    return model.cache[key]


def _batch_size_of(site: CallSite, model: SemanticModel) -> BatchSize | None:
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
    if model.callees(site) or _own_class_instance(site, model):
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


def _own_class_instance(site: CallSite, model: SemanticModel) -> bool:
    """``trainer.fit(x, y)`` where ``trainer`` holds an instance of one of the file's
    classes that is not a Keras model (``trainer = Trainer(...)``, ``Trainer(...).fit``,
    a parameter annotated ``trainer: Trainer``): its ``fit`` is the user's, even
    when it is inherited from a base the file imports; Keras's 32 does not apply."""
    func = site.node.func
    receiver = func.value if isinstance(func, ast.Attribute) else None
    class_name = None
    if isinstance(receiver, ast.Name):
        class_name = model.instance_class(receiver.id) or _annotated_class(receiver.id, site.unit)
    elif isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
        class_name = receiver.func.id
    return (class_name is not None and class_name in set(model.class_names())
            and class_name not in model.model_classes)


def _annotated_class(name: str, unit: Unit) -> str | None:
    current: Unit | None = unit
    while current is not None and not current.is_module:
        node = current.node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                if arg.arg == name:
                    annotation = arg.annotation
                    return annotation.id if isinstance(annotation, ast.Name) else None
        current = current.parent
    return None


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
    feeds a layer's ``adapt()``, or only a host-side ``for`` loop.

    Worked out once per call: MG201 asks it, then asks MG202's question, which asks it again."""
    key = ("judged", id(site))
    found = model.cache.get(key)
    if found is None:
        found = model.cache[key] = _judged(site, model)
    return found


def _judged(site: CallSite, model: SemanticModel) -> bool:
    if runs_per_replica(site, model) or site.single_device:
        return False
    if _fits_before_the_strategy(site, model):
        return False  # a model trained to the end before the strategy exists never meets it
    if model.is_estimator_input_fn(site.unit):
        return False  # an Estimator's input_fn: the Estimator batches per replica itself
    if model.is_element_function(site.unit) or site.is_inside(lambda o: o.method in api.ELEMENT_FUNCTION_METHODS):
        return False  # flat_map(lambda w: w.batch(WINDOW)): batches one window, not the dataset
    chained = set(site.chained)
    if chained & dataflow.UNBATCHING or chained & api.BATCH_METHODS:
        return False
    if site.iterated or site.is_inside(lambda outer: outer.method == "adapt"):
        return False
    if dataflow.gathered_on_host(site):
        return False  # next(iter(ids_ds.batch(N))).numpy(): gathered on the host
    if _for_unreplicated_model(site, model):
        return False  # the deliberately unreplicated copy's own evaluate/predict
    if _per_worker(site.unit, model, set()):
        return False  # coordinator.create_per_worker_dataset(fn): each worker's batch, not one to split
    if site.method in api.BATCH_SIZE_POSITION:
        return True  # fit/evaluate: the batch is used right there
    return dataflow.batch_reaches_strategy(site, model)


def _fits_before_the_strategy(site: CallSite, model: SemanticModel) -> bool:
    """``first.fit(ds.batch(64))`` (or ``first.fit(x, batch_size=64)``) before the program makes
    its strategy, with ``first`` never used after it."""
    def fits_before(call: CallSite) -> bool:
        return call.method in api.BATCH_SIZE_POSITION and model.trained_before_the_strategy(call)

    return fits_before(site) or site.is_inside(fits_before)


def runs_per_replica(site: CallSite, model: SemanticModel) -> bool:
    """Inside an input function a per-replica API calls with an ``InputContext``:
    ``distribute_datasets_from_function`` (the model knows those), or Keras's
    ``DatasetCreator(dataset_fn)`` for ``fit`` under ParameterServerStrategy."""
    return model.runs_per_replica(site) or _handed(site.unit, model, "dataset creators", _DATASET_CREATOR, set())


_DATASET_CREATOR = "DatasetCreator"


def _functions_named_by(model: SemanticModel, sites, key: str) -> set[int]:
    """The units (by id) of the file's functions that the ``(site, argument)`` pairs name: the
    binding the name has where it is passed, so another ``def dataset_fn`` elsewhere is not it."""
    found = model.cache.get(key)
    if found is None:
        found = model.cache[key] = {
            id(function) for site, argument in sites if isinstance(argument, ast.Name)
            for function in [model.function(argument.id, site.unit)] if function is not None
        }
    return found


def _handed_functions(model: SemanticModel, key: str, callee: str) -> set[int]:
    """The file's functions given as first argument to a call of ``callee``."""
    return _functions_named_by(model, (
        (site, site.node.args[0]) for unit in model.units for site in unit.calls
        if site.node.args and any(q.rsplit(".", 1)[-1] == callee for q in site.qualified)), key)


def _handed(unit: Unit | None, model: SemanticModel, key: str, callee: str, seen: set[int]) -> bool:
    return _only_within(unit, model, _handed_functions(model, key, callee), seen)


def _only_within(unit: Unit | None, model: SemanticModel, functions: set[int], seen: set[int],
                 handed_lambda: Callable[[Unit], bool] | None = None) -> bool:
    """Does ``unit`` run only as part of ``functions`` (by id): one of them, nested in one,
    or a helper that only such code calls (a lambda ``handed_lambda`` accepts counts too)?"""
    while unit is not None and not unit.is_module:
        if id(unit) in functions or (handed_lambda is not None and unit.is_lambda and handed_lambda(unit)):
            return True
        if id(unit) not in seen and unit.callers:
            seen.add(id(unit))
            if all(_only_within(caller.unit, model, functions, seen, handed_lambda) for caller in unit.callers):
                return True
        unit = unit.parent
    return False


def _per_worker_functions(model: SemanticModel) -> set[int]:
    return _functions_named_by(model, (
        (site, argument) for unit in model.units for site in unit.calls if site.method == "create_per_worker_dataset"
        for argument in [*site.node.args[:1], *(k.value for k in site.node.keywords if k.arg == "dataset_fn")]),
        "per-worker functions")


def _per_worker(unit: Unit | None, model: SemanticModel, seen: set[int]) -> bool:
    """A function given to ``create_per_worker_dataset`` (for training or for
    evaluation), a lambda given to it, or a helper only such functions call:
    its batch is one worker's."""
    return _only_within(unit, model, _per_worker_functions(model), seen, _lambda_given_to_per_worker)


def _lambda_given_to_per_worker(unit: Unit) -> bool:
    return any(site.method == "create_per_worker_dataset" and unit.node in site.node.args
               for site in (unit.parent.calls if unit.parent is not None else ()))


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


class ConstantSize(NamedTuple):
    """A constant that sets a batch: the node to report, its value, and the
    expression that holds it as seen from ``unit`` (where it is written)."""

    report: ast.AST
    value: Value
    expression: ast.expr | None = None
    unit: Unit | None = None
    order: int | None = None


def constant_sizes(found: BatchSize, site: CallSite, unit: Unit,
                   model: SemanticModel) -> Iterator[ConstantSize]:
    """Each constant that sets this batch."""
    expression = found.expression
    if expression is None:
        yield ConstantSize(found.report, Value(Kind.CONSTANT, api.KERAS_DEFAULT_BATCH_SIZE))
        return
    if isinstance(expression, (ast.List, ast.Tuple)):  # bucket_batch_sizes=[64, 64, 32]
        values = [value_of(e, unit, model, order=site.order) for e in expression.elts]
        if values and all(v.kind is Kind.CONSTANT for v in values):
            yield ConstantSize(found.report, Value(Kind.CONSTANT))
        return
    value = value_of(expression, unit, model, order=site.order)
    if value.kind is Kind.CONSTANT:
        yield ConstantSize(found.report, value, expression, unit, site.order)
    elif isinstance(expression, ast.Name) and expression.id in unit.params:
        # make_dataset(x, 32): judged by the values that reach the parameter,
        # each reported where it is written.
        returned = dataflow.returns_dataset_of(unit, site)
        for origin in parameter_origins(expression.id, unit, model):
            if returned and origin.site is not None and dataflow.result_never_reaches_strategy(origin.site, model):
                continue  # this call's dataset only feeds something else (a model trained before the strategy)
            if origin.value.kind is Kind.CONSTANT:
                # A literal at a call site is reported there; a default, at the batch.
                at_call = origin.unit is not unit
                home = origin.unit if at_call else (unit.parent or model.module)
                yield ConstantSize(found.report if not at_call else origin.node, origin.value,
                                   origin.node, home)  # type: ignore[arg-type]


class FixedProduct(NamedTuple):
    """``GLOBAL = PER_REPLICA * 2``: a global batch multiplied by a fixed count."""

    product: ast.BinOp | ast.AugAssign  # or `GLOBAL *= 2`
    factor: ast.expr  # the smaller factor: the count the replicas should replace
    number: int


def _constant_product(node: ast.AST, left: Value, right: Value, left_node: ast.expr,
                      right_node: ast.expr) -> FixedProduct | None:
    """Two known, different numbers multiplied: the smaller is the fixed count."""
    if left.kind is Kind.CONSTANT and right.kind is Kind.CONSTANT and None not in (left.number, right.number):
        if left.number == right.number:
            return None
        factor, number = (left_node, left.number) if left.number < right.number else (right_node, right.number)
        return FixedProduct(node, factor, number)  # type: ignore[arg-type]
    return None


def fixed_product(size: ConstantSize, model: SemanticModel) -> FixedProduct | None:
    """The product of two fixed numbers this constant is, through the names it is bound to."""
    node: ast.AST | None = size.expression
    unit = size.unit
    order = size.order
    for _ in range(_MAX_DEPTH):
        if node is None or unit is None:
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return _constant_product(node, value_of(node.left, unit, model), value_of(node.right, unit, model),
                                     node.left, node.right)
        if not isinstance(node, ast.Name):
            return None
        scope: Unit | None = unit
        while scope is not None and node.id not in scope.bindings:
            scope = scope.parent
        if scope is None or node.id in scope.params:
            return None
        bindings = scope.bindings[node.id]
        if scope is unit and order is not None:
            bindings = [b for b in bindings if b.order < order] or bindings
        run = straight_augmented_run(bindings)
        if run is not None:
            # GLOBAL = 64; GLOBAL *= 2: the product of what it held and the last factor.
            last = run[-1]
            if len(run) != 2 or not isinstance(last.augmented.op, ast.Mult):
                return None
            return _constant_product(last.augmented, value_of(run[0].value, scope, model),
                                     value_of(last.value, scope, model), last.augmented.target, last.value)
        if bindings[-1].value is None:
            return None
        node, unit, order = bindings[-1].value, scope, None
    return None


def _input_context_name(unit: Unit) -> str:
    """How the advice spells the input context: the function's own parameter."""
    current: Unit | None = unit
    while current is not None and not current.is_module:
        for param in current.params:
            if param in PER_REPLICA_PARAMS or "context" in param.lower():
                return param
        current = current.parent
    return "input_context"


_MAX_DEPTH = 8
# Where a program says a value is its global batch: get_per_replica_batch_size(GLOBAL),
# compute_average_loss(..., global_batch_size=GLOBAL).
_GLOBAL_ARGUMENT = {"get_per_replica_batch_size": (0, "global_batch_size"),
                    "compute_average_loss": (None, "global_batch_size")}


def _binding_key(name: str, unit: Unit) -> tuple[int, str] | None:
    scope: Unit | None = unit
    while scope is not None and name not in scope.bindings and name not in scope.params:
        scope = scope.parent
    return (id(scope), name) if scope is not None and name in scope.bindings else None


def _aliases(node: ast.AST, unit: Unit, depth: int = 0) -> Iterator[tuple[int, str]]:
    """The bindings a name stands for: its own, and through ``batch_size = GLOBAL``
    the one it copies."""
    if not isinstance(node, ast.Name) or depth > _MAX_DEPTH:
        return
    key = _binding_key(node.id, unit)
    if key is None:
        return
    yield key
    scope: Unit | None = unit
    while scope is not None and node.id not in scope.bindings:
        scope = scope.parent
    bindings = scope.bindings[node.id] if scope is not None else []
    if len(bindings) == 1 and isinstance(bindings[0].value, ast.Name):
        yield from _aliases(bindings[0].value, scope, depth + 1)  # type: ignore[arg-type]


def _said_global(model: SemanticModel) -> set[tuple[int, str]]:
    """The names the file itself hands on as its global batch (see ``_GLOBAL_ARGUMENT``)."""
    found = model.cache.get("said global")
    if found is None:
        found = set()
        for unit in model.units:
            for site in unit.calls:
                where = _GLOBAL_ARGUMENT.get(site.method or "") or next(
                    (_GLOBAL_ARGUMENT[q.rsplit(".", 1)[-1]] for q in site.qualified
                     if q.rsplit(".", 1)[-1] in _GLOBAL_ARGUMENT), None)
                if where is None:
                    continue
                position, keyword = where
                given = site.keyword(keyword)
                argument = given.value if given is not None else (
                    site.node.args[position] if position is not None and len(site.node.args) > position else None)
                if argument is not None:
                    found.update(_aliases(argument, unit))
        model.cache["said global"] = found
    return found


def role(expression: ast.expr, site: CallSite, model: SemanticModel) -> Kind:
    """Which batch the size's value is, from where it comes: scaled (global),
    per replica, a constant, or unknown; a name handed to
    ``get_per_replica_batch_size`` or ``compute_average_loss(global_batch_size=)``
    is the file's global batch too. Names never decide."""
    value = value_of(expression, site.unit, model, order=site.order)
    if value.kind is Kind.REPLICAS:
        return Kind.SCALED
    if value.kind in (Kind.CONSTANT, Kind.UNKNOWN) and said_global(expression, site, model):
        return Kind.SCALED if value.kind is Kind.UNKNOWN else Kind.CONSTANT
    return value.kind


def said_global(expression: ast.expr, site: CallSite, model: SemanticModel) -> bool:
    """Is this size a name the file hands on as its global batch?"""
    return any(key in _said_global(model) for key in _aliases(expression, site.unit))


def mismatch(site: CallSite, found: BatchSize, context: Context) -> str | None:
    """Why the batch size is of the wrong kind for where it is used (MG202's
    message), or None. Worked out once per call: MG201 asks too."""
    return context.memo(("MG202", id(site)), lambda: _mismatch(site, found, context))


def _mismatch(site: CallSite, found: BatchSize, context: Context) -> str | None:
    expression = found.expression
    if expression is None or isinstance(expression, ast.Constant):
        return None  # a literal says nothing about which batch it means
    model = context.model
    size = context.code(expression)
    kind = role(expression, site, model)
    if runs_per_replica(site, model):
        # A global value in an input function run once per pipeline: scaled by the
        # replicas, or the size the file hands on as its global batch.
        if kind is Kind.SCALED or (kind is Kind.CONSTANT and said_global(expression, site, model)):
            ctx = _input_context_name(site.unit)
            return (f"`{size}` is the global batch size, but this input function runs once per input "
                    f"pipeline and each replica takes what it batches; batch with "
                    f"`{ctx}.get_per_replica_batch_size({size})`")
        return None
    if not judged(site, model):
        return None
    if kind is Kind.PER_REPLICA:
        strategy = model.strategy_name
        return (f"`{size}` is a per-replica batch size, but this batch is the global batch "
                f"`{strategy}` splits across replicas; batch with `{size} * {strategy}.num_replicas_in_sync`")
    return None


def unscaled_global(site: CallSite, found: BatchSize, context: Context) -> bool:
    """MG201's question: is this a judged global batch that MG202 does not
    claim? A per-replica value in a global position is MG202's finding, and
    its advice; MG201 would say the same batch twice."""
    return judged(site, context.model) and mismatch(site, found, context) is None
