"""MG201's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
    # Two nested functions of one name: only the one handed to create_per_worker_dataset batches
    # per worker; the other feeds experimental_distribute_dataset a global batch (found by binding).
    "per_worker_exemption_follows_the_function_not_its_name": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)

        def train_input():
            def dataset_fn():
                return tf.data.Dataset.range(100).batch(64)  # expect: MG201
            return strategy.experimental_distribute_dataset(dataset_fn())

        def eval_input():
            def dataset_fn():
                return tf.data.Dataset.range(100).batch(64)
            return coordinator.create_per_worker_dataset(dataset_fn)
    """,
    # `BATCH_SIZE *= strategy.num_replicas_in_sync` is how many scripts scale their batch
    # (keras-io, Kaggle TPU notebooks): scaled. `*= 2` is a fixed product (its message names the
    # 2, never "multiply by the replicas" again); an `*=` under an if is not one number.
    "augmented_assignments_scale_or_fix_the_batch": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE = 64
        BATCH_SIZE *= strategy.num_replicas_in_sync
        DOUBLED = 64
        DOUBLED *= 2
        MAYBE = 64
        if use_two_gpus:
            MAYBE *= strategy.num_replicas_in_sync
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(BATCH_SIZE))
        model.fit(x, y, batch_size=DOUBLED)  # expect: MG201
        model.fit(x, y, batch_size=MAYBE)
    """,
    # A helper returns two datasets and the caller unpacks them: only the one trained on is a
    # global batch (red team round 6: a k-fold helper whose `train` half was never read).
    "helper_returns_a_pair_and_only_one_is_trained_on": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def get_datasets(ds):
            train = ds.skip(100).batch(456)  # expect: MG201
            held_out = ds.take(100).batch(64)
            return train, held_out

        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        train_ds, unused = get_datasets(tf.data.Dataset.range(1000))
        model.fit(train_ds, epochs=1)
    """,
    # tensorflow/tensorflow issue reproductions paste the single-worker run before the multi-worker
    # one: the first dataset (batched by a helper) feeds only a model trained to the end before the
    # strategy exists; the second, made after it, is the global batch.
    "helper_dataset_of_a_run_finished_before_the_strategy": """
        import tensorflow as tf

        def make_dataset(batch_size):
            return tf.data.Dataset.range(100).map(lambda x: (x, x)).batch(batch_size)

        first_ds = make_dataset(64)
        first = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        first.compile(optimizer="sgd", loss="mse")
        first.fit(first_ds, epochs=1)

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        model.fit(make_dataset(64), epochs=1)  # expect: MG201
    """,
    "batch_sizes_constant_derived_and_unknown": """
        import argparse
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        PER_REPLICA = 64
        GLOBAL = PER_REPLICA * strategy.num_replicas_in_sync
        HARDCODED_TPU = 16 * 8
        args = argparse.ArgumentParser().parse_args()
        a = ds.batch(GLOBAL)
        b = ds.batch(PER_REPLICA)  # expect: MG201
        c = ds.batch(HARDCODED_TPU, drop_remainder=True)  # expect: MG201
        d = ds.batch(args.batch_size)
        e = ds.padded_batch(32)  # expect: MG201
        dist = [strategy.experimental_distribute_dataset(x) for x in (a, b, c, d, e)]
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, batch_size=PER_REPLICA)  # expect: MG201
        model.fit(x, y, GLOBAL)
        model.evaluate(x, y, 256)  # expect: MG201
        model.predict(x, batch_size=256)
    """,
    "augmented_scaling_counts_as_derived": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH = 64
        BATCH *= strategy.num_replicas_in_sync
        ds = ds.batch(BATCH)
    """,
    "multi_line_chain_reports_the_batch_line": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        train = (
            ds.map(parse)
            .shuffle(1000)
            .batch(128)  # expect: MG201
            .prefetch(tf.data.AUTOTUNE)
        )
    """,
    "per_replica_dataset_function": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def dataset_fn(input_context):
            batch = input_context.get_per_replica_batch_size(256)
            return ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id).batch(32)

        dist = strategy.distribute_datasets_from_function(dataset_fn)
        dist2 = strategy.distribute_datasets_from_function(lambda ctx: ds.batch(16))
    """,
    "one_device_strategy_batches_are_judged_too": """
        import tensorflow as tf
        strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
        ds = ds.batch(32)  # expect: MG201
        with strategy.scope():
            model = tf.keras.Sequential()
    """,
    "vectorisation_batch_undone_by_unbatch": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        targets = text_ds.batch(1024).map(vectorize).unbatch()
        train = targets.batch(512)  # expect: MG201
    """,
    "constants_in_other_spellings": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        EPOCHS, BATCH_SIZE = 30, 64
        EVAL_BATCH = 2 ** 8
        a = ds.batch(BATCH_SIZE)  # expect: MG201
        b = ds.batch(EVAL_BATCH)  # expect: MG201
        c = ds.batch(int(128))  # expect: MG201
    """,
    "constant_rescaled_only_after_its_use": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE = 64
        train = ds.batch(BATCH_SIZE)  # expect: MG201
        BATCH_SIZE = 16 * strategy.num_replicas_in_sync
        val = ds.batch(BATCH_SIZE)
    """,
}
