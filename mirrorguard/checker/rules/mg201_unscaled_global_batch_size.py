"""MG201 unscaled-global-batch-size."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, FixHook, Report, Rule
from mirrorguard.checker.semantic import CallSite, SemanticModel
from mirrorguard.checker.semantic.values import Kind, value_of

# Calls followed by one of these on the same chain batch for speed, not for
# the global batch: ds.batch(1024).map(vectorize).unbatch().
_UNBATCHING = frozenset({"unbatch", "rebatch"})


def batch_size_argument(site: CallSite) -> tuple[ast.AST, ast.expr] | None:
    """(node to report, batch-size expression) when the call sets a global batch size."""
    method = site.method
    if any(q in api.DATASET_FROM_DIRECTORY for q in site.qualified):
        keyword = site.keyword("batch_size")
        return (keyword, keyword.value) if keyword is not None else None
    if method is None or site.qualified:
        return None
    if method in api.BATCH_METHODS:
        if _UNBATCHING.intersection(site.chained):
            return None
        positional = site.positional()
        if site.node.args and not isinstance(site.node.args[0], ast.Starred):
            return positional[0], positional[0]
        keyword = site.keyword("batch_size")
        return (keyword, keyword.value) if keyword is not None else None
    if method in api.BATCH_SIZE_POSITION:
        keyword = site.keyword("batch_size")
        if keyword is not None:
            return keyword, keyword.value
        positional = site.positional()
        index = api.BATCH_SIZE_POSITION[method]
        if len(positional) > index:
            return positional[index], positional[index]
    return None


def check(context: Context) -> Iterator[Report]:
    model: SemanticModel = context.model
    strategy = model.strategy_name
    # Even under OneDeviceStrategy: the batch stays unscaled when the code
    # moves to more replicas (the contract judges every strategy in play).
    for unit in model.strategy_code():
        for site in unit.calls:
            found = batch_size_argument(site)
            if found is None or model.runs_per_replica(site):
                continue
            report, expression = found
            value = value_of(expression, unit, model.module, order=site.order)
            if value.kind is not Kind.CONSTANT:
                continue
            size = f"`{value.number}`" if value.number is not None else f"`{context.code(report)}`"
            yield Report(report, f"global batch size {size} is not scaled by `{strategy}.num_replicas_in_sync`; "
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
    size (`Dataset.batch(N)`, `padded_batch(N)`, `fit(..., batch_size=N)`,
    `evaluate(..., batch_size=N)`, `image_dataset_from_directory(...,
    batch_size=N)`) that is not derived from `num_replicas_in_sync`. Sizes that
    come from arguments or configuration are not judged, nor per-replica
    batches inside a `dataset_fn(input_context)` given to
    `distribute_datasets_from_function`. A `OneDeviceStrategy` counts too:
    the size stays unscaled when the code moves to more replicas.

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
