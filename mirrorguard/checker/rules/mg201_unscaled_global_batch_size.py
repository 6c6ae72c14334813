"""MG201 unscaled-global-batch-size."""

from __future__ import annotations

from typing import Iterator

from mirrorguard.checker.rules import _batching as batching
from mirrorguard.checker.rules.base import Case, Context, Fix, Report, Rule
from mirrorguard.checker.semantic import SemanticModel


def check(context: Context) -> Iterator[Report]:
    model: SemanticModel = context.model
    strategy = model.strategy_name
    seen: set[int] = set()
    # Even under OneDeviceStrategy: the batch stays unscaled when the code
    # moves to more replicas (the contract judges every strategy in play).
    for unit in model.strategy_code():
        for site in unit.calls:
            found = batching.batch_size_of(site, model)
            if found is None or not batching.unscaled_global(site, found, context):
                continue
            for node, value in batching.constant_sizes(found, site, unit, model):
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
    fix=Fix.SCALE_BY_REPLICAS,
    check=check,
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
    a config class's field), dict literals (`CONFIG["batch_size"]`,
    `cfg.get("batch_size", 64)`, a config dict handed to a helper's
    parameter) and the literal arguments or defaults that reach a
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
        """, lines=(4,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE = 64
        ds = ds.shuffle(100).batch(BATCH_SIZE * strategy.num_replicas_in_sync)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make()
        model.fit(x, y, batch_size=32)
        """, lines=(5,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = make()
        model.fit(x, y, batch_size=32 * strategy.num_replicas_in_sync)
        """),
        # Constants held in dicts (issue 17): a module CONFIG read in a dataset helper,
        # and a config dict handed to run(config) (both shapes from public training code).
        Case("""
        import tensorflow as tf
        CONFIG = {"img_size": 224, "batch_size": 64}
        strategy = tf.distribute.MirroredStrategy()
        def make_ds(ds):
            return ds.shuffle(5000).batch(CONFIG["batch_size"])
        train_ds = strategy.experimental_distribute_dataset(make_ds(raw))
        """, lines=(5,)),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def run(config):
            x_ds = load().batch(config.get("batch_size", 64))
            with strategy.scope():
                model = build()
            model.fit(x_ds, epochs=config["num_epochs"])
        default_config = {"num_epochs": 20, "batch_size": 16}
        run(default_config)
        """, lines=(4,)),
    ),
)
