"""MG201 unscaled-global-batch-size."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, FixHook, Report, Rule
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit
from mirrorguard.checker.semantic.values import Kind, Value, parameter_origins, value_of

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
    if site.unit.name in model.b.estimator_input_fns:
        return False  # an Estimator's input_fn: the Estimator batches per replica itself
    if site.unit.name in model.b.element_fn_names or site.is_inside(lambda o: o.method in api.ELEMENT_FUNCTION_METHODS):
        return False  # flat_map(lambda w: w.batch(WINDOW)): batches one window, not the dataset
    if site.chained and (_UNBATCHING.intersection(site.chained) or api.BATCH_METHODS.intersection(site.chained)):
        return False
    if site.iterated or site.is_inside(lambda outer: outer.method == "adapt"):
        return False
    if _gathered_on_host(site):
        return False  # next(iter(ids_ds.batch(N))).numpy(): gathered on the host
    if _for_unreplicated_model(site, model):
        return False  # the deliberately unreplicated copy's own evaluate/predict
    if site.method in api.BATCH_SIZE_POSITION:
        return True  # fit/evaluate: the batch is used right there
    if site.is_inside(lambda outer: any(q.startswith(_LIBRARY_SINKS) for q in outer.qualified)):
        return False  # tfrs.metrics.FactorizedTopK(candidates=movies.batch(128)...): an index the library scans
    end = _chain_end(site)
    return not (len(end.targets) == 1 and _only_feeds_elsewhere(end.targets[0], end, model, 0))


# Libraries that take a dataset to scan it themselves, not to train on it.
_LIBRARY_SINKS = ("tensorflow_recommenders.",)


def _chain_end(site: CallSite) -> CallSite:
    """The outermost call of the method chain ``site`` is part of:
    ``ids = ratings.batch(N).map(f)`` for ``ratings.batch(N)``."""
    current = site
    while current.inside_call is not None and _in_receiver_chain(current.inside_call.node, current.node):
        current = current.inside_call
    return current


def _in_receiver_chain(outer: ast.Call, inner: ast.Call) -> bool:
    node = outer.func
    while isinstance(node, ast.Attribute):
        node = node.value
        if node is inner:
            return True
        if isinstance(node, ast.Call):
            node = node.func
    return False


def _only_feeds_elsewhere(name: str, site: CallSite, model: SemanticModel, depth: int) -> bool:
    """``vocab_ds = text_ds.batch(1024)`` then only ``layer.adapt(vocab_ds)``;
    ``chunks = stream.batch(SEQ + 1)`` then ``chunks.map(split)...batch(GLOBAL)``;
    ``held_out = ds.batch(256)`` then only ``for x in held_out:``. The batched
    dataset never reaches the strategy as it is."""
    if "." in name or depth > 3:
        return False
    home = site.binding_unit
    start, end = home.window(name, site.order)
    uses = reads = 0
    for unit in model.units_seeing(home, name):
        if unit is not home and not model.seen_by_functions(home, name, end):
            continue

        def inside(order: int, unit=unit) -> bool:
            return start <= order < end if unit is home else True

        reads += len(unit.reads_between(name, start, end) if unit is home else unit.reads_of(name))
        uses += sum(1 for used, order in unit.iterated if used == name and inside(order))
        for other in unit.calls_on(name):
            if not inside(other.order):
                continue
            if other.chain_root == name and other.inside_call is not None and other.inside_call.chain_root == name:
                continue
            uses += 1
            chain = [c for c in unit.calls_on(name)
                     if c.chain_root == name and (c is other or c.is_inside(lambda o: o is other))]
            if other.chain_root == name and any(c.method in api.BATCH_METHODS for c in chain):
                continue  # batched again on the way
            if other.method == "adapt" or other.is_inside(lambda outer: outer.method == "adapt"):
                continue
            if other.chain_root == name and other.iterated:
                continue
            if _host_side(other, name, model):
                continue
            # dataset = chunks.map(split): follow the new name.
            final = _end_of_chain(other, unit) if other.chain_root == name else None
            if final is not None and len(final.targets) == 1 and _only_feeds_elsewhere(
                final.targets[0], final, model, depth + 1
            ):
                continue
            return False
    if not reads:
        # Re-bound before anything reads it: it reaches nothing. Left unused to
        # the end, it is still the global batch the script means.
        return end < 1 << 62
    return reads <= uses


# Consumers that bring a dataset to the host, never to the strategy.
_HOST_METHODS = frozenset({"as_numpy_iterator", "numpy", "take_while"})
_HOST_FUNCTIONS = frozenset({
    "iter", "next", "list", "enumerate", "len", "print", "tensorflow_datasets.as_numpy",
    # TF1 iterators, read by a Session on the host
    "tensorflow.data.make_one_shot_iterator", "tensorflow.data.make_initializable_iterator",
})


def _host_side(site: CallSite, name: str, model: SemanticModel) -> bool:
    """``next(iter(ds))``, ``ds.as_numpy_iterator()``, ``session.run(ds)``: the dataset
    goes to the host (a plot, a print, a TF1 session), not to the strategy."""
    if site.method in _HOST_METHODS and site.chain_root == name:
        return True
    func = site.node.func
    if site.method == "run" and isinstance(func, ast.Attribute) and not model.is_strategy(func.value):
        return True  # Session.run, not strategy.run
    return _host_call(site)


_STRATEGY_SINKS = frozenset({
    "experimental_distribute_dataset", "distribute_datasets_from_function", "create_per_worker_dataset",
    "fit", "evaluate", "predict", "run", "search",
})


def _for_unreplicated_model(site: CallSite, model: SemanticModel) -> bool:
    """``unreplicated.evaluate(x, y, batch_size=64)``, ``unreplicated.predict(ds.batch(8))``:
    batches of a model kept out of the strategy on purpose (MG101's exemption)."""
    unreplicated = model.unreplicated_names
    if not unreplicated:
        return False
    call: CallSite | None = site
    while call is not None:
        if call.method in _STRATEGY_SINKS and call.receiver is not None:
            return (id(call.unit), call.receiver) in unreplicated
        call = call.inside_call
    return False


def _gathered_on_host(site: CallSite) -> bool:
    """The call sits in the arguments of a host-side call (``next(iter(...))``)
    with nothing that hands it to the strategy in between."""
    outer = site.inside_call
    while outer is not None:
        if outer.method in _STRATEGY_SINKS:
            return False
        if _host_call(outer):
            return True
        outer = outer.inside_call
    return False


def _host_call(site: CallSite) -> bool:
    func = site.node.func
    called = site.qualified or ((func.id,) if isinstance(func, ast.Name) else ())
    return any(q in _HOST_FUNCTIONS for q in called)


def _end_of_chain(site: CallSite, unit) -> CallSite | None:
    """The outermost call of the method chain ``site`` starts: ``a.map(f).shuffle(9)`` for ``a.map(f)``."""
    if not site.chained:
        return site
    for other in unit.calls:
        if (other.statement is site.statement and other.chain_root == site.chain_root and not other.chained
                and other.order < site.order):
            return other
    return None


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


def check(context: Context) -> Iterator[Report]:
    from mirrorguard.checker.rules import mg202_batch_size_per_replica_mismatch as mg202

    model: SemanticModel = context.model
    strategy = model.strategy_name
    seen: set[int] = set()
    # Even under OneDeviceStrategy: the batch stays unscaled when the code
    # moves to more replicas (the contract judges every strategy in play).
    for unit in model.strategy_code():
        for site in unit.calls:
            found = batch_size_of(site, model)
            if found is None or not judged(site, model) or mg202.mismatch(site, found, context) is not None:
                continue
            for node, value in constant_sizes(found, site, unit, model):
                if id(node) in seen:
                    continue
                seen.add(id(node))
                if found.expression is None:
                    size = f"`{value.number}` (Keras's default)"
                else:
                    size = f"`{value.number}`" if value.number is not None else f"`{context.code(node)}`"
                yield Report(node, f"global batch size {size} is not scaled by `{strategy}.num_replicas_in_sync`; "
                                   f"use a per-replica size times `{strategy}.num_replicas_in_sync`")


RULE = Rule(
    code="MG201",
    name="unscaled-global-batch-size",
    summary="Global batch size not derived from `strategy.num_replicas_in_sync`",
    fix="unsafe",
    check=check,
    fix_hook=FixHook.SCALE_BY_REPLICAS,
    docs="""
    ## What it does
    In a file with a strategy in play, flags a literal or constant global batch
    size that is not derived from `num_replicas_in_sync`: `Dataset.batch(N)`,
    `padded_batch`, `ragged_batch`, `dense_to_ragged_batch(N)`,
    `bucket_by_sequence_length(..., bucket_batch_sizes=[...])`,
    `fit(..., batch_size=N)`, `evaluate(..., batch_size=N)`,
    `image_dataset_from_directory(..., batch_size=N)` (and the text, audio and
    time-series ones), Hugging Face `prepare_tf_dataset`/`to_tf_dataset(batch_size=N)`,
    and `fit(x, y)` on arrays with no `batch_size` (Keras batches by 32).
    Constants are followed through names, attributes (`self.batch_size = 64`,
    a config class's field) and the literal arguments or defaults that reach a
    batching helper's parameter (reported where the literal is written, a
    default at the batch). A `OneDeviceStrategy` counts too: the size stays
    unscaled when the code moves to more replicas.

    Not judged: per-replica batches inside an input function given to
    `distribute_datasets_from_function` (see MG202); a batch whose dataset never
    reaches the strategy (it only feeds a layer's `adapt()`, a host-side loop,
    `next(iter(...))` or `Session.run`, is batched again or unbatched later, is
    re-bound before use, or batches one window inside `flat_map`); an Estimator's
    `input_fn`; the batches of a copy kept out of the strategy on purpose; the
    no-strategy branch of `if strategy: ... else: ...`.

    ## Why is this bad?
    The batch you give tf.distribute is the *global* batch: it is split across
    the replicas, `ceil(N / replicas)` rows each. A fixed N shrinks every
    replica's batch as you add GPUs and splits unevenly on counts that do not
    divide it: 33 rows over 2 replicas give 17 and 16, and Keras 3 fails on the
    first step with `Inputs to operation AddN ... must have the same size and
    shape`; 6 rows over 4 replicas leave one replica with none.

    ## Example
    ```python
    train_ds = train_ds.shuffle(10_000).batch(64)
    ```

    ## Use instead
    ```python
    BATCH_SIZE_PER_REPLICA = 64
    global_batch = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
    train_ds = train_ds.shuffle(10_000).batch(global_batch)
    ```
    The unsafe fix rewrites `.batch(64)` as `.batch(64 * strategy.num_replicas_in_sync)`:
    it changes the global batch on multi-replica machines, so it is never applied by default.
    """,
    valid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        PER_REPLICA = 64
        GLOBAL = PER_REPLICA * strategy.num_replicas_in_sync
        ds = ds.batch(GLOBAL)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def dataset_fn(input_context):
            return make().batch(64)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """),
        Case("""
        import tensorflow as tf
        ds = ds.batch(64)  # no strategy in play
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE = 64
        ds = ds.shuffle(100).batch(BATCH_SIZE)
        """, lines=(4,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make()
        model.fit(x, y, batch_size=32)
        """, lines=(5,)),
    ),
)
