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
            for constant in batching.constant_sizes(found, site, unit, model):
                node, value = constant.report, constant.value
                if id(node) in seen:
                    continue
                seen.add(id(node))
                if found.expression is None:
                    size = f"`{value.number}` (Keras's default)"
                else:
                    size = f"`{value.number}`" if value.number is not None else f"`{context.code(node)}`"
                product = batching.fixed_product(constant, model)
                if product is not None:
                    # Already multiplied, by a fixed count: name the number to replace,
                    # never "multiply by the replicas" a second time.
                    factor = context.code(product.factor)
                    why = (f"which multiplies by a fixed `{factor}`" if factor == str(product.number)
                           else f"and `{factor}` is a fixed `{product.number}`")
                    yield Report(node, f"global batch size {size} is `{context.code(product.product)}`, {why}; "
                                       f"if it counts the replicas, write `{strategy}.num_replicas_in_sync` "
                                       f"in place of the fixed `{factor}`", fixable=False)
                    continue
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
    unscaled when the code moves to more replicas. A constant is a constant
    whatever it is called: `per_replica_bs = 64` batched for `fit` is reported
    here. A product of fixed numbers (`GLOBAL = PER_REPLICA * 2`, or
    `* num_workers` with `num_workers = 2`) is reported with the number to
    replace by `num_replicas_in_sync`; it is already multiplied, so the fix
    leaves it to you.

    Not judged: per-replica batches inside an input function given to
    `distribute_datasets_from_function` or Keras's `DatasetCreator` (see MG202), and per-worker ones in a
    function given to `create_per_worker_dataset` (training or evaluation); a
    batch whose dataset never reaches the strategy (it only feeds a layer's
    `adapt()`, a host-side loop, `next(iter(...))` or `Session.run`, is batched
    again or unbatched later, also by or after a helper of the file, is re-bound
    before use or never read, or batches one window inside `flat_map`); the
    `fit` of the file's own (non-Keras) trainer class, which has no Keras
    default batch; an Estimator's
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
        model.fit(ds)
        """),
        # The name lies: it says per replica, the value is scaled to the global batch.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE_PER_REPLICA = 64 * strategy.num_replicas_in_sync
        ds = ds.batch(BATCH_SIZE_PER_REPLICA)
        dist = strategy.experimental_distribute_dataset(ds)
        """),
        # keras-io text examples: batch to vectorize fast, then unbatch, in a helper.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def vectorized(ds):
            return ds.batch(1024).map(vectorize_layer)
        train = vectorized(raw).unbatch().batch(32 * strategy.num_replicas_in_sync)
        model.fit(train)
        """),
        # ... or a helper that only hands back what it is given, unbatched.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def flatten(ds):
            ds = ds.map(vectorize_layer)
            return ds.unbatch()
        chunks = raw.batch(1024)
        train = flatten(chunks).batch(32 * strategy.num_replicas_in_sync)
        model.fit(train)
        """),
        # tensorflow/docs parameter_server_training: each worker's dataset, also for evaluation.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.ParameterServerStrategy(resolver)
        coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        def eval_dataset_fn():
            return tf.data.Dataset.from_tensor_slices(eval_data).batch(8)
        per_worker_eval_dataset = coordinator.create_per_worker_dataset(eval_dataset_fn)
        """),
        # tensorflow/docs parameter_server_training, Model.fit path: Keras calls the
        # DatasetCreator's function once per worker with an InputContext (whatever it is called).
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.ParameterServerStrategy(resolver)
        def dataset_fn(ctx):
            return make().shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(64)
        dc = tf.keras.utils.experimental.DatasetCreator(dataset_fn)
        """),
        # A batched dataset nothing reads.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        preview = raw.batch(8)
        train = raw.batch(64 * strategy.num_replicas_in_sync)
        model.fit(train)
        """),
        # The file's own trainer class: its fit has no Keras default batch.
        Case("""
        import tensorflow as tf
        from trainers import BaseTrainer
        strategy = tf.distribute.MirroredStrategy()
        class Trainer(BaseTrainer):
            def __init__(self, strategy):
                self.strategy = strategy
        trainer = Trainer(strategy)
        trainer.fit(x_train, y_train)
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
        dist = strategy.experimental_distribute_dataset(ds)
        """, lines=(4,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE = 64
        ds = ds.shuffle(100).batch(BATCH_SIZE * strategy.num_replicas_in_sync)
        dist = strategy.experimental_distribute_dataset(ds)
        """),
        # The name lies: a constant called per-replica is still an unscaled global batch (not MG202).
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        per_replica_bs = 64
        model.fit(x_train, y_train, batch_size=per_replica_bs)
        """, lines=(4,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        per_replica_bs = 64
        model.fit(x_train, y_train, batch_size=per_replica_bs * strategy.num_replicas_in_sync)
        """),
        # Multiplied by a fixed count: the advice names it, and the fixer leaves it (no second scaling).
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        PER_REPLICA = 64
        GLOBAL = PER_REPLICA * 2
        model.fit(x_train, y_train, batch_size=GLOBAL)
        """, lines=(5,)),
        # A helper that keeps the batch (it only maps and prefetches): still the global batch.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        def prep(ds):
            ds = ds.map(augment)
            return ds.prefetch(2)
        model.fit(prep(raw.batch(64)))
        """, lines=(6,)),
        # tensorflow/docs multi_worker_with_keras with the worker count written in.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        per_worker_batch_size = 64
        num_workers = 2
        global_batch_size = per_worker_batch_size * num_workers
        dist = strategy.experimental_distribute_dataset(raw.batch(global_batch_size))
        """, lines=(6,)),
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
