"""MG202 batch-size-per-replica-mismatch."""

from __future__ import annotations

import ast
import re
from typing import Iterator

from mirrorguard.checker.rules import mg201_unscaled_global_batch_size as mg201
from mirrorguard.checker.rules.base import Case, Context, Report, Rule
from mirrorguard.checker.semantic import CallSite, SemanticModel, Unit, walk
from mirrorguard.checker.semantic.builder import PER_REPLICA_PARAMS

# Names that say which batch they hold.
_SAYS_PER_REPLICA = re.compile(r"(?i)per_?replica|per_?(?:gpu|device|core|tpu|worker)|replica_batch|batch_per")
_SAYS_GLOBAL = re.compile(r"(?i)global")
_MAX_DEPTH = 8


def _names_behind(node: ast.AST, unit: Unit, model: SemanticModel, depth: int = 0) -> Iterator[ast.AST]:
    """``node`` and, through the last binding of each name it reads, the expressions behind it."""
    yield node
    if depth > _MAX_DEPTH:
        return
    for inner in walk(node):
        if isinstance(inner, ast.Name):
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


def mismatch(site: CallSite, found: mg201.BatchSize, context: Context) -> str | None:
    """Why the batch size is of the wrong kind for where it is used, or None."""
    return context.memo(("MG202", id(site)), lambda: _mismatch(site, found, context))


def _mismatch(site: CallSite, found: mg201.BatchSize, context: Context) -> str | None:
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
    if not mg201.judged(site, model):
        return None
    if _reads(behind, attribute="num_replicas_in_sync") and not _divides_by_replicas(behind):
        return None  # scaled to the global batch
    if _reads(behind, _SAYS_PER_REPLICA) or _divides_by_replicas(behind):
        strategy = model.strategy_name
        return (f"`{size}` is a per-replica batch size, but this batch is the global batch "
                f"`{strategy}` splits across replicas; batch with `{size} * {strategy}.num_replicas_in_sync`")
    return None


def check(context: Context) -> Iterator[Report]:
    model = context.model
    with_strategy = {id(unit) for unit in model.strategy_code()}
    for unit in model.units:
        for site in unit.calls:
            found = mg201.batch_size_of(site, model)
            if found is None or (id(unit) not in with_strategy and not model.runs_per_replica(site)):
                continue
            message = mismatch(site, found, context)
            if message is not None:
                yield Report(found.report, message)


RULE = Rule(
    code="MG202",
    name="batch-size-per-replica-mismatch",
    summary="Per-replica and global batch sizes mixed up",
    fix="none",
    check=check,
    docs="""
    ## What it does
    Inside an input function given to `distribute_datasets_from_function`
    (it takes an `InputContext`), flags batching with the *global* batch size
    (a value scaled by `num_replicas_in_sync`, or a name that says global)
    instead of `input_context.get_per_replica_batch_size(GLOBAL)`. Everywhere
    else (`experimental_distribute_dataset`, `fit`), flags batching with a
    *per-replica* size: a name that says per replica (`BATCH_SIZE_PER_REPLICA`,
    `per_gpu_batch`) or a value divided by `num_replicas_in_sync`, not
    multiplied back. MG201 is not reported again for a batch MG202 reports.

    ## Why is this bad?
    `distribute_datasets_from_function` calls the input function once per
    input pipeline and each replica takes a whole batch of what it returns: a
    global batch there makes every replica's batch (and the effective global
    batch) N times too big. Conversely a dataset given to
    `experimental_distribute_dataset` or `fit` is split across the replicas:
    a per-replica size there gives each replica 1/N of the batch you meant.

    ## Example
    ```python
    def dataset_fn(input_context):
        ds = make_dataset().shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return ds.batch(GLOBAL_BATCH_SIZE)

    train_ds = strategy.distribute_datasets_from_function(dataset_fn)
    ```

    ## Use instead
    ```python
    def dataset_fn(input_context):
        batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
        ds = make_dataset().shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return ds.batch(batch_size)
    ```

    ## References
    - https://www.tensorflow.org/tutorials/distribute/input#tfdistributestrategydistribute_datasets_from_function
    """,
    valid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
        def dataset_fn(input_context):
            batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
            return make().batch(batch_size)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE_PER_REPLICA = 64
        GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
        ds = make().batch(GLOBAL_BATCH_SIZE)
        dist_ds = strategy.experimental_distribute_dataset(ds)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
        def dataset_fn(input_context):
            return make().batch(GLOBAL_BATCH_SIZE)
        ds = strategy.distribute_datasets_from_function(dataset_fn)
        """, lines=(5,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE_PER_REPLICA = 64
        GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
        ds = make().batch(BATCH_SIZE_PER_REPLICA)
        dist_ds = strategy.experimental_distribute_dataset(ds)
        """, lines=(5,)),
    ),
)
