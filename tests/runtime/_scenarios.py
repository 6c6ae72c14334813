"""Training scenarios for the runtime guards, run in one process per set-up.

    python tests/runtime/_scenarios.py --replicas 3            # MirroredStrategy on 3 logical CPUs
    python tests/runtime/_scenarios.py --worker 0 --ports a,b  # MultiWorkerMirroredStrategy, TF_CONFIG built here

The Keras flavour follows TF_USE_LEGACY_KERAS, as in user code. Importing
TensorFlow costs seconds, so every scenario of a set-up runs in this one process
and the results go to stdout as one JSON line, which the pytest tests read and
assert on scenario by scenario. A scenario returns what it observed (error type,
message, attributes, steps run, warnings); it never decides pass or fail itself.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
import warnings

PREFIX = "MG-RESULTS "


def parse_args(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--worker", type=int, default=None)
    parser.add_argument("--ports", default="")
    parser.add_argument("--only", default="", help="comma-separated scenario names or name prefixes")
    return parser.parse_args(argv)


ARGS = parse_args(sys.argv[1:])
MULTIWORKER = ARGS.worker is not None
if MULTIWORKER:
    from mirrorguard.testkit.workers import tf_config

    os.environ["TF_CONFIG"] = tf_config([f"127.0.0.1:{p}" for p in ARGS.ports.split(",")], ARGS.worker)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

if not MULTIWORKER:
    _cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(_cpu, [tf.config.LogicalDeviceConfiguration()] * ARGS.replicas)

keras = tf.keras  # the flavour TF picked, as a user's script gets it
FLAVOUR = "tfkeras" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "keras3"

import mirrorguard  # noqa: E402
from mirrorguard.callbacks import AssertEvenBatchSplit, AssertMirroredVariables  # noqa: E402
from mirrorguard.callbacks._split import greedy_split  # noqa: E402

if MULTIWORKER:
    STRATEGY = tf.distribute.MultiWorkerMirroredStrategy()
else:
    STRATEGY = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(ARGS.replicas)])
N = STRATEGY.num_replicas_in_sync
PER = 4  # rows per replica in an even batch
B = PER * N  # even global batch
FEATURES = 5
RNG = np.random.default_rng(0)
X = RNG.normal(size=(B * 8, FEATURES)).astype("float32")
Y = RNG.normal(size=(B * 8, 1)).astype("float32")
ZERO_ROWS = {1: None, 2: 1, 3: 4, 4: 6}[N]  # a global batch that leaves a replica empty


def build(layers_input=True, batchnorm=True):
    layers = [keras.Input((FEATURES,))] if layers_input else []
    layers.append(keras.layers.Dense(3))
    if batchnorm:
        layers.append(keras.layers.BatchNormalization())
    layers.append(keras.layers.Dense(1))
    return keras.Sequential(layers)


def compiled(**compile_kwargs):
    model = build()
    model.compile(optimizer="sgd", loss="mse", **compile_kwargs)
    return model


def in_scope(strategy=None, **compile_kwargs):
    with (strategy or STRATEGY).scope():
        return compiled(**compile_kwargs)


def batches(sizes):
    """A dataset of known cardinality whose batch sizes are `sizes`, in order."""
    dataset = None
    start = 0
    for size in sizes:
        part = tf.data.Dataset.from_tensor_slices((X[start : start + size], Y[start : start + size])).batch(size)
        dataset = part if dataset is None else dataset.concatenate(part)
        start += size
    return dataset


def steps_run(model) -> int:
    return int(model.optimizer.iterations.numpy())


SCENARIOS = {}


def scenario(*, multiworker=("tfkeras",), replicas=(2, 3), flavours=("keras3", "tfkeras")):
    """Registers a scenario for the set-ups it applies to.

    `multiworker` names the flavours it runs for under MultiWorkerMirroredStrategy:
    Keras 3.15 cannot fit() there at all (see `mw_keras3_cannot_fit`), so only
    the checks that fire before its own failure run for Keras 3.
    """

    def register(function):
        if MULTIWORKER:
            applies = FLAVOUR in flavours and FLAVOUR in (multiworker or ())
        else:
            applies = FLAVOUR in flavours and ARGS.replicas in replicas
        if applies:
            SCENARIOS[function.__name__] = function
        return function

    return register


# AssertMirroredVariables ------------------------------------------------------


@scenario()
def mv_inside_passes(r):
    model = in_scope()
    callbacks = [AssertMirroredVariables(STRATEGY), AssertEvenBatchSplit()]
    r.fit(model, X, Y, batch_size=B, epochs=2, callbacks=callbacks)
    r.note(train_step_restored="train_step" not in vars(model), train_function_reset=model.train_function is None)


@scenario(multiworker=())
def mv_outside_default_strategy(r):
    r.fit(compiled(), X, Y, batch_size=B, callbacks=[AssertMirroredVariables()])


@scenario(multiworker=("keras3", "tfkeras"))
def mv_outside_with_strategy(r):
    r.fit(compiled(), X, Y, batch_size=B, callbacks=[AssertMirroredVariables(STRATEGY)])


@scenario(multiworker=("keras3", "tfkeras"), replicas=())
def mv_outside_multiworker_default(r):
    # Each worker has one CPU, but TF lists the devices of the whole cluster.
    r.fit(compiled(), X, Y, batch_size=B, callbacks=[AssertMirroredVariables()])


@scenario(multiworker=("keras3",), replicas=())
def mw_keras3_cannot_fit(r):
    # Keras 3.15 feeds PerReplica values where tensors are expected under MWMS;
    # when this starts passing, the Keras 3 multi-worker scenarios can be enabled.
    r.fit(in_scope(), X, Y, batch_size=B)


@scenario(multiworker=())
def mv_other_strategy(r):
    other = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(N)])
    r.fit(in_scope(other), X, Y, batch_size=B, callbacks=[AssertMirroredVariables(STRATEGY)])


@scenario(multiworker=())
def mv_outside_warns(r):
    r.fit(compiled(), X, Y, batch_size=B, callbacks=[AssertMirroredVariables(on_failure="warn")])


@scenario(multiworker=())
def mv_fit_inside_model_outside(r):
    # The model trains under the strategy, its variables are plain: each is named.
    model = compiled()
    with STRATEGY.scope():
        r.fit(model, X, Y, batch_size=B, callbacks=[AssertMirroredVariables()])


@scenario()
def mv_lazily_built_model(r):
    # No Input: layers are built at the first call, inside fit, in the scope.
    with STRATEGY.scope():
        model = build(layers_input=False)
        model.compile(optimizer="adam", loss="mse")
    r.fit(model, X, Y, batch_size=B, callbacks=[AssertMirroredVariables(STRATEGY)])


@scenario(multiworker=(), flavours=("tfkeras",))
def mv_compile_outside_tfkeras(r):
    # Legal in tf-keras since TF 2.1: no false alarm.
    with STRATEGY.scope():
        model = build()
    model.compile(optimizer="adam", loss="mse")
    r.fit(model, X, Y, batch_size=B, callbacks=[AssertMirroredVariables(STRATEGY)])


@scenario(multiworker=())
def mv_one_device_strategy(r):
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    model = in_scope(one)
    r.fit(model, X, Y, batch_size=B + 1, callbacks=[AssertMirroredVariables(one), AssertEvenBatchSplit()])


@scenario(multiworker=())
def mv_central_storage(r):
    central = tf.distribute.experimental.CentralStorageStrategy([f"/cpu:{i}" for i in range(N)])
    with central.scope():
        model = build(batchnorm=False)  # Keras 3 BatchNorm cannot update AggregatingVariables
        model.compile(optimizer="adam", loss="mse")
    r.fit(model, X, Y, batch_size=B, callbacks=[AssertMirroredVariables(central), AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(1,))
def mv_default_one_device(r):
    model = compiled()
    r.fit(model, X, Y, batch_size=8, callbacks=[AssertMirroredVariables(), AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(1,))
def mv_default_declared(r):
    # Single-replica training declared on purpose, with the default strategy.
    r.fit(compiled(), X, Y, batch_size=8, callbacks=[AssertMirroredVariables(tf.distribute.get_strategy())])


# explain_errors on the failures Keras raises itself ---------------------------


@scenario(multiworker=())
def ex_model_outside_compile_inside(r):
    def program():
        model = build()
        with STRATEGY.scope():
            model.compile(optimizer="adam", loss="mse")
        r.fit(model, X, Y, batch_size=B)

    r.explained(program)


@scenario(multiworker=())
def ex_backbone_outside(r):
    def program():
        backbone = build()
        with STRATEGY.scope():
            model = keras.Sequential([keras.Input((FEATURES,)), backbone, keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        r.fit(model, X, Y, batch_size=B)

    r.explained(program)


@scenario(multiworker=())
def ex_layer_built_outside(r):
    # A layer built (called once) outside the scope, used by a model built inside it.
    def program():
        early = keras.layers.Dense(3, name="early")
        early(tf.zeros((1, FEATURES)))
        with STRATEGY.scope():
            model = keras.Sequential([keras.Input((FEATURES,)), early, keras.layers.Dense(1, name="late")])
            model.compile(optimizer="adam", loss="mse")
        r.fit(model, X, Y, batch_size=B)

    r.explained(program)


@scenario(multiworker=(), flavours=("keras3",))
def ex_compile_outside_keras3(r):
    def program():
        with STRATEGY.scope():
            model = build()
        model.compile(optimizer="adam", loss="mse")
        r.fit(model, X, Y, batch_size=B)

    r.explained(program)


@scenario(multiworker=(), flavours=("tfkeras",))
def ex_metric_outside_tfkeras(r):
    def program():
        metric = keras.metrics.MeanAbsoluteError()
        with STRATEGY.scope():
            model = build()
            model.compile(optimizer="adam", loss="mse", metrics=[metric])

    r.explained(program)


@scenario(multiworker=())
def ex_unrelated_error_passes(r):
    def program():
        model = in_scope()
        r.fit(model, X[:, :2], Y, batch_size=B)  # wrong input width

    r.explained(program)


# AssertEvenBatchSplit ----------------------------------------------------------


@scenario()
def ev_first_batch_uneven(r):
    model = in_scope()
    r.explained(lambda: r.fit(model, X, Y, batch_size=B + 1, callbacks=[AssertEvenBatchSplit()]), model=model)


@scenario()
def ev_dataset_mid_epoch(r):
    model = in_scope()
    r.fit(model, batches([B, B + 1, B, B]), callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=())
def ev_zero_rows(r):
    model = in_scope()
    r.fit(model, batches([B, ZERO_ROWS, B, B]), callbacks=[AssertEvenBatchSplit()])


@scenario()
def ev_partial_warns_once(r):
    model = in_scope()
    r.fit(model, X[: 3 * B + 1], Y[: 3 * B + 1], batch_size=B, epochs=2, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=())
def ev_partial_raises(r):
    model = in_scope()
    cb = AssertEvenBatchSplit(partial_batch="raise")
    r.fit(model, X[: 3 * B + 1], Y[: 3 * B + 1], batch_size=B, epochs=2, callbacks=[cb])


@scenario(multiworker=())
def ev_partial_ignored(r):
    model = in_scope()
    cb = AssertEvenBatchSplit(partial_batch="ignore")
    r.fit(model, X[: 3 * B + 1], Y[: 3 * B + 1], batch_size=B, epochs=2, callbacks=[cb])


@scenario(multiworker=())
def ev_partial_even_is_fine(r):
    # A last batch of N rows is partial but splits evenly: nothing to report.
    model = in_scope()
    r.fit(model, X[: 3 * B + N], Y[: 3 * B + N], batch_size=B, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=())
def ev_uneven_warns(r):
    model = in_scope()
    r.fit(model, batches([B, B + 1, B, B]), callbacks=[AssertEvenBatchSplit(on_failure="warn")])


@scenario(multiworker=())
def ev_generator(r):
    # Keras 3 drops the batches its set-up iterator prefetched from a generator,
    # so which step first sees an uneven batch varies: every batch after the
    # first two is uneven, and the error must come at the first of them that trains.
    def generate():
        for index in range(10_000):
            size = B if index < 2 else B + 1
            yield X[:size], Y[:size]

    model = in_scope()
    r.fit(model, generate(), steps_per_epoch=6, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=())
def ev_sequence(r):
    base = getattr(keras.utils, "PyDataset", None) or keras.utils.Sequence
    sizes = [B, B + 1, B]

    class Batches(base):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return len(sizes)

        def __getitem__(self, index):
            start = sum(sizes[:index])
            return X[start : start + sizes[index]], Y[start : start + sizes[index]]

    model = in_scope()
    r.fit(model, Batches(), shuffle=False, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=())
def ev_unknown_cardinality_partial(r):
    dataset = tf.data.Dataset.from_tensor_slices((X[: 3 * B + 1], Y[: 3 * B + 1])).filter(lambda x, y: True)
    model = in_scope()
    r.fit(model, dataset.batch(B), epochs=2, callbacks=[AssertEvenBatchSplit()])
    r.note(cardinality=int(dataset.cardinality()))


@scenario(multiworker=())
def ev_unknown_cardinality_mid_epoch(r):
    dataset = batches([B, B + 1, B, B]).filter(lambda x, y: True)
    model = in_scope()
    r.fit(model, dataset, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,), flavours=("tfkeras",))
def ev_steps_per_execution(r):
    # Keras 3.15 cannot fit under MirroredStrategy with steps_per_execution > 1
    # (a graph error with or without mirrorguard), so this is tf-keras only.
    model = in_scope(steps_per_execution=2)
    r.fit(model, batches([B, B + 1, B, B]), callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,))
def ev_run_eagerly(r):
    model = in_scope(run_eagerly=True)
    r.fit(model, batches([B, B + 1, B, B]), callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,))
def ev_refit_restores_model(r):
    model = in_scope()
    r.fit(model, X, Y, batch_size=B, callbacks=[AssertEvenBatchSplit()])
    restored = "train_step" not in vars(model)
    # Without the callback, an uneven batch trains as Keras would train it.
    model.fit(batches([B, B + 1, B]), verbose=0)
    r.note(restored_after_first_fit=restored, steps_after_plain_fit=steps_run(model))
    r.fit(model, batches([B, B + 1, B]), callbacks=[AssertEvenBatchSplit()])


# XLA ------------------------------------------------------------------------------


class CheckedOnOneReplica(AssertEvenBatchSplit):
    # The split check is off on one replica (every split is even); switched on
    # here so that its ops are compiled with the step, as on several GPUs.
    def applies(self, strategy):
        return True


def _checked_on_one_replica():
    return CheckedOnOneReplica()


@scenario(multiworker=(), replicas=(1,))
def xla_guarded_fit(r):
    model = in_scope(jit_compile=True)
    guard = _checked_on_one_replica()
    r.fit(model, X[:40], Y[:40], batch_size=8, epochs=2, callbacks=[AssertMirroredVariables(STRATEGY), guard])
    rows = [int(v) for v in guard._buffer.values[0].numpy()[:10]] if guard._buffer is not None else None
    r.note(jit_compile=model.jit_compile, compiled_check=guard._xla, rows_recorded=rows)


@scenario(multiworker=(), replicas=(1,))
def xla_guarded_fit_zero_rows(r):
    # A batch of 0 rows, the one uneven split a single replica can get, found under XLA.
    empty = tf.data.Dataset.from_tensors((X[:0], Y[:0]))
    dataset = batches([8, 8]).concatenate(empty).concatenate(batches([8]))
    model = in_scope(jit_compile=True)
    r.fit(model, dataset, epochs=1, callbacks=[_checked_on_one_replica()])


@scenario(multiworker=(), replicas=(2,))
def xla_multi_replica_plain_keras(r):
    # Without mirrorguard: records whether this TF can jit_compile a step over
    # several logical CPU devices at all (it cannot in TF 2.21).
    r.fit(in_scope(jit_compile=True), X, Y, batch_size=B)


# Which batch is partial ---------------------------------------------------------------


@scenario(multiworker=(), replicas=(2,))
def ev_repeat_uneven_on_last_step(r):
    # A repeated dataset has no partial batch, even on the epoch's last step.
    model = in_scope()
    r.fit(model, batches([B, B, B, B + 1]).repeat(), steps_per_epoch=4, epochs=2, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,))
def ev_steps_per_epoch_ends_before_data(r):
    model = in_scope()
    r.fit(model, batches([B, B, B, B + 1, B, B]), steps_per_epoch=4, epochs=1, callbacks=[AssertEvenBatchSplit()])


def remainder_pydataset(sizes):
    base = getattr(keras.utils, "PyDataset", None) or keras.utils.Sequence

    class Batches(base):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return len(sizes)

        def __getitem__(self, index):
            start = sum(sizes[:index])
            return X[start : start + sizes[index]], Y[start : start + sizes[index]]

    return Batches()


@scenario(multiworker=(), replicas=(2,))
def ev_pydataset_remainder_mid_epoch(r):
    # Where fit()'s shuffling may put it: the short remainder at step 1 (shuffle=False pins it).
    model = in_scope()
    r.fit(model, remainder_pydataset([B, 1, B, B]), shuffle=False, epochs=2, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,))
def ev_pydataset_remainder_shuffled(r):
    # The same data shuffled by fit(), with the remainder kept off the first step
    # (Keras 3 reduces the first batch before any callback: see ev_first_batch_uneven).
    model = in_scope()
    keras.utils.set_random_seed(1)
    r.fit(model, remainder_pydataset([B, B, B, B, 1]), epochs=3, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,))
def ev_pydataset_two_short_batches(r):
    model = in_scope()
    r.fit(model, remainder_pydataset([B, 1, B, 1]), shuffle=False, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(2,))
def ev_arrays_partial_advice(r):
    model = in_scope()
    r.fit(model, X[: 3 * B + 1], Y[: 3 * B + 1], batch_size=B, callbacks=[AssertEvenBatchSplit(partial_batch="raise")])


@scenario(multiworker=(), replicas=(2,), flavours=("keras3",))
def ev_keras3_pydataset_remainder_first(r):
    # Keras 3 fails on a short first batch before any callback; the explanation fits the input.
    model = in_scope()
    r.explained(lambda: r.fit(model, remainder_pydataset([1, B, B]), shuffle=False), model=model)


# Lifecycle ---------------------------------------------------------------------------


def _traced(function, depth=0):
    """The tf.function behind Keras' train function (Keras 3 wraps it in a Python function)."""
    if hasattr(function, "_list_all_concrete_functions") or depth > 3:
        return function
    for cell in getattr(function, "__closure__", None) or ():
        try:
            found = _traced(cell.cell_contents, depth + 1)
        except ValueError:  # an empty cell
            continue
        if hasattr(found, "_list_all_concrete_functions"):
            return found
    return function


def op_types(model):
    """The op types of the model's traced train function, with those of the functions it calls."""
    function = _traced(model.train_function)
    concrete = function._list_all_concrete_functions()  # noqa: SLF001 - the traced graphs
    graph_def = concrete[0].graph.as_graph_def()
    ops = [node.op for node in graph_def.node]
    for library_function in graph_def.library.function:
        ops += [node.op for node in library_function.node_def]
    return sorted(ops)


class StopAfterFirstEpoch(keras.callbacks.Callback):
    def __init__(self, error):
        super().__init__()
        self.error = error

    def on_epoch_end(self, epoch, logs=None):
        raise self.error


def _plain_ops(model):
    model.fit(X, Y, batch_size=B, verbose=0)
    return op_types(model)


@scenario(multiworker=(), replicas=(2,))
def lc_ways_out(r):
    # After each way out of a guarded run, an unguarded fit() traces what plain Keras traces.
    model = in_scope()
    plain = _plain_ops(model)
    guards = lambda: [AssertMirroredVariables(STRATEGY), AssertEvenBatchSplit()]  # noqa: E731
    outcomes = {}

    def way_out(name, run):
        try:
            run()
            outcomes[name] = "returned"
        except BaseException as error:  # noqa: BLE001 - KeyboardInterrupt included, on purpose
            outcomes[name] = type(error).__name__
        after = _plain_ops(model)
        r.note(**{f"{name}_same_ops": after == plain, f"{name}_step_restored": "train_step" not in vars(model)})

    way_out("normal_end", lambda: model.fit(X, Y, batch_size=B, verbose=0, callbacks=guards()))
    way_out("guard_error", lambda: model.fit(batches([B, B + 1, B]), verbose=0, callbacks=guards()))
    way_out("keyboard_interrupt", lambda: model.fit(
        X, Y, batch_size=B, epochs=2, verbose=0, callbacks=[*guards(), StopAfterFirstEpoch(KeyboardInterrupt())]))
    way_out("callback_error", lambda: model.fit(
        X, Y, batch_size=B, epochs=2, verbose=0, callbacks=[*guards(), StopAfterFirstEpoch(ValueError("boom"))]))

    def failing_data():
        yield X[:B], Y[:B]
        raise KeyboardInterrupt

    way_out("interrupt_in_step", lambda: model.fit(failing_data(), steps_per_epoch=3, verbose=0, callbacks=guards()))
    way_out("evaluate", lambda: model.evaluate(X, Y, batch_size=B, verbose=0, callbacks=guards()))
    way_out("predict", lambda: model.predict(X, batch_size=B, verbose=0, callbacks=guards()))
    r.note(outcomes=outcomes, plain_ops=len(plain))


@scenario(multiworker=(), replicas=(1,))
def ev_single_replica_inactive(r):
    model = compiled()
    r.fit(model, X, Y, batch_size=7, callbacks=[AssertEvenBatchSplit()])


@scenario(multiworker=(), replicas=(1,))
def arguments_are_validated(r):
    errors = {}
    for name, make in {
        "on_failure_mv": lambda: AssertMirroredVariables(on_failure="ignore"),
        "strategy": lambda: AssertMirroredVariables(strategy="mirrored"),
        "partial_batch": lambda: AssertEvenBatchSplit(partial_batch="sometimes"),
        "on_failure_ev": lambda: AssertEvenBatchSplit(on_failure=False),
    }.items():
        try:
            make()
            errors[name] = None
        except Exception as error:  # noqa: BLE001 - reported, asserted in pytest
            errors[name] = f"{type(error).__name__}: {error}"
    callback_class = keras.callbacks.Callback
    r.note(
        errors=errors,
        subclasses=[issubclass(c, callback_class) for c in (AssertMirroredVariables, AssertEvenBatchSplit)],
        callback_module=callback_class.__module__,
    )


# assert_mirrored and custom training loops ------------------------------------------


def custom_loop_state(strategy=None):
    """What a custom loop builds: model, optimizer, metric, step counter and checkpoint."""
    with (strategy or STRATEGY).scope():
        model = build()
        optimizer = keras.optimizers.Adam()
        metric = keras.metrics.Mean(name="train_loss")
        step = tf.Variable(0, name="step")
        # Slots made before the loop: tf.function cannot create them on the first call.
        optimizer.build(model.trainable_variables)
        checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, step=step)
    return model, optimizer, metric, step, checkpoint


def train_custom(model, optimizer, metric, step, steps=3, every=None):
    """A few steps of the tutorials' custom loop; `every(i)` runs between steps."""
    dataset = tf.data.Dataset.from_tensor_slices((X, Y)).batch(B, drop_remainder=True).take(steps)

    @tf.function
    def train_step(x, y):
        def replica(x, y):
            with tf.GradientTape() as tape:
                per_example = tf.reduce_sum(tf.square(model(x, training=True) - y), axis=-1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=B)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            metric.update_state(loss)
            step.assign_add(1)

        STRATEGY.run(replica, args=(x, y))

    for index, (x, y) in enumerate(STRATEGY.experimental_distribute_dataset(dataset)):
        train_step(x, y)
        if every is not None:
            every(index)


@scenario(replicas=(1, 2, 3), multiworker=())
def am_inside_passes(r):
    model, optimizer, metric, step, checkpoint = custom_loop_state()
    mirrorguard.assert_mirrored(STRATEGY, model, optimizer, metric, step, checkpoint)
    checks = []

    def check(index):  # every step, as a loop would every N steps
        mirrorguard.assert_mirrored(STRATEGY, model, optimizer, metric, checkpoint, [step], {"m": model})
        checks.append(index)

    train_custom(model, optimizer, metric, step, steps=3, every=check)
    kinds = sorted({type(v.value if hasattr(v, "path") and not isinstance(v, tf.Variable) else v).__name__
                    for v in [*model.weights, *metric.variables]})
    r.note(checks=checks, step=int(step.numpy()), kinds=kinds, optimizer_variables=len(optimizer.variables))


@scenario(replicas=(1, 2, 3), multiworker=())
def am_everything_outside(r):
    # A model, optimizer, metric and step counter made outside the scope, saved by a checkpoint.
    model = build()
    model.build((None, FEATURES))
    optimizer = keras.optimizers.SGD(momentum=0.9)
    optimizer.build(model.trainable_variables)
    metric = keras.metrics.Mean(name="outside_loss")
    counter = tf.Variable(0, name="counter")
    checkpoint = tf.train.Checkpoint(model=model, step=counter)
    r.note(model_variables=len(model.weights), optimizer_variables=len(optimizer.variables))
    mirrorguard.assert_mirrored(STRATEGY, model, optimizer, metric, checkpoint)


@scenario(replicas=(1, 2, 3), multiworker=())
def am_step_counter_outside(r):
    # The silent mistake assert_mirrored exists for: every replica updates one plain variable.
    model, optimizer, metric, _, _ = custom_loop_state()
    counter = tf.Variable(0, name="counter")
    train_custom(model, optimizer, metric, counter, steps=4)
    r.note(counter_after_4_steps=int(counter.numpy()))
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, step=counter)
    mirrorguard.assert_mirrored(STRATEGY, checkpoint)


@scenario(replicas=(1, 2, 3), multiworker=())
def am_layer_built_outside(r):
    # One layer built (called) outside the scope, used by a model built inside it.
    encoder = keras.layers.Dense(3, name="encoder")
    encoder(tf.zeros((1, FEATURES)))
    with STRATEGY.scope():
        model = keras.Sequential([keras.Input((FEATURES,)), encoder, keras.layers.Dense(1, name="head")])
    mirrorguard.assert_mirrored(STRATEGY, model)


@scenario(replicas=(1, 2, 3), multiworker=())
def am_other_strategy(r):
    other = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(N)])
    model, optimizer, metric, step, checkpoint = custom_loop_state(other)
    mirrorguard.assert_mirrored(STRATEGY, model)


@scenario(replicas=(2,), multiworker=())
def am_arguments(r):
    errors = {}
    model, *_ = custom_loop_state()
    for name, call in {
        "no_objects": lambda: mirrorguard.assert_mirrored(STRATEGY),
        "not_a_strategy": lambda: mirrorguard.assert_mirrored("mirrored", model),
        "not_trackable": lambda: mirrorguard.assert_mirrored(STRATEGY, model, "weights.h5"),
    }.items():
        try:
            call()
            errors[name] = None
        except Exception as error:  # noqa: BLE001 - reported, asserted in pytest
            errors[name] = f"{type(error).__name__}: {error}"
    r.note(errors=errors)


def one_sgd_step(loss_of):
    """The weight of Dense(1) (weight 1, no bias) after one SGD(1.0) step on rows x=1, y=0.

    `loss_of(per_example, y, prediction)` is what the replica function differentiates;
    the global batch is 4 rows per replica. On one device the MSE gradient is 2,
    so the right update gives 1 - 2 = -1.
    """
    global_batch = 4 * N
    with STRATEGY.scope():
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")])
        optimizer = keras.optimizers.SGD(1.0)
        optimizer.build(model.trainable_variables)
    ones, zeros = np.ones((global_batch, 1), "float32"), np.zeros((global_batch, 1), "float32")
    dataset = tf.data.Dataset.from_tensor_slices((ones, zeros))

    @tf.function
    def train_step(x, y):
        def replica(x, y):
            with tf.GradientTape() as tape:
                prediction = model(x, training=True)
                per_example = tf.reduce_sum(tf.square(prediction - y), axis=-1)
                loss = loss_of(per_example, y, prediction, global_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))

        STRATEGY.run(replica, args=(x, y))

    for x, y in STRATEGY.experimental_distribute_dataset(dataset.batch(global_batch)):
        train_step(x, y)
    return float(tf_weight(model.weights[0]).numpy().ravel()[0])


def tf_weight(variable):
    return variable if isinstance(variable, tf.Variable) else variable.value


@scenario(replicas=(1, 2, 3), multiworker=())
def mg301_loss_averaged_per_replica(r):
    # Rule MG301's claim, measured: the per-replica mean makes the update N times too large.
    weights = {
        "reduce_mean": one_sgd_step(lambda per_example, y, p, g: tf.reduce_mean(per_example)),
        "compute_average_loss": one_sgd_step(
            lambda per_example, y, p, g: tf.nn.compute_average_loss(per_example, global_batch_size=g)
        ),
    }
    r.note(weights=weights)
    # A Keras loss object with its default reduction, inside the replica function.
    loss_object = keras.losses.MeanSquaredError()
    r.explained(lambda: r.note(loss_object=one_sgd_step(lambda per_example, y, p, g: loss_object(y, p))))


# Issue 21: guards that never invent a cause ------------------------------------------


def caught_warnings(function):
    """Runs `function()`, returning the text of the UserWarnings it emitted."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


@scenario(replicas=(2,), multiworker=())
def am_checkpoint_saved_outside(r):
    # TensorFlow's tutorials save outside the scope: the save counter that the first
    # save() creates there is checkpoint bookkeeping, not training state.
    import tempfile

    model, optimizer, metric, step, checkpoint = custom_loop_state()
    directory = tempfile.mkdtemp()
    train_custom(model, optimizer, metric, step, steps=2, every=lambda i: checkpoint.save(f"{directory}/ckpt"))
    mirrorguard.assert_mirrored(STRATEGY, model, optimizer, metric, checkpoint)
    r.note(save_counter=int(checkpoint.save_counter.numpy()))


@scenario(replicas=(2,), multiworker=())
def am_unbuilt_model(r):
    # No Input and never called: nothing to check yet, which is said, not crashed on.
    with STRATEGY.scope():
        model = build(layers_input=False)
    r.note(warnings=caught_warnings(lambda: mirrorguard.assert_mirrored(STRATEGY, model)), built=model.built)


@scenario(replicas=(2,), multiworker=())
def am_embedding_built_by_hand(r):
    # A two-tower model whose item Embedding was built by hand before the scope (to load vectors).
    item_emb = keras.layers.Embedding(10, 4, name="item_emb")
    item_emb.build((None,))
    with STRATEGY.scope():
        user_emb = keras.layers.Embedding(10, 4, name="user_emb")
        users, items = keras.Input((1,), name="user"), keras.Input((1,), name="item")
        score = keras.layers.Dot(axes=-1)([keras.layers.Flatten()(user_emb(users)), keras.layers.Flatten()(item_emb(items))])
        model = keras.Model([users, items], score)
    mirrorguard.assert_mirrored(STRATEGY, model)


@scenario(replicas=(2,), multiworker=())
def am_one_device_outside(r):
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    model = build()
    model.build((None, FEATURES))
    mirrorguard.assert_mirrored(one, model)


@scenario(replicas=(2,), multiworker=())
def mv_one_device_fit_inside_model_outside(r):
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    model = compiled()
    with one.scope():
        r.fit(model, X, Y, batch_size=B, callbacks=[AssertMirroredVariables()])


@scenario(replicas=(2,), multiworker=())
def am_optimizer_outside_custom_loop(r):
    # Issue 20: an optimizer made outside the scope, its slots built inside it.
    with STRATEGY.scope():
        model = build()
    optimizer = keras.optimizers.SGD(0.01)
    with STRATEGY.scope():
        optimizer.build(model.trainable_variables)
    try:
        mirrorguard.assert_mirrored(STRATEGY, model, optimizer)
        r.note(reported=False)
    except mirrorguard.NotMirroredError as error:
        r.note(reported=True, message=str(error), variables=list(error.variables))
    metric = keras.metrics.Mean()
    with STRATEGY.scope():
        step = tf.Variable(0)
    train_custom(model, optimizer, metric, step, steps=2)
    r.note(iterations_after_2_steps=int(tf_weight(optimizer.iterations).numpy()))


@scenario(replicas=(2,), multiworker=(), flavours=("keras3",))
def mv_optimizer_inside_model_outside_wording(r):
    # The model built outside, its optimizer made in the scope: only the model is blamed.
    # (tf-keras refuses this pairing in compile(); Keras 3 accepts it until fit() builds.)
    with STRATEGY.scope():
        optimizer = keras.optimizers.SGD()
    model = build()
    model.compile(optimizer=optimizer, loss="mse")
    guard = AssertMirroredVariables(STRATEGY)
    guard.set_model(model)
    guard.on_train_begin()


@scenario(replicas=(2,), multiworker=())
def ev_validation_split_advice(r):
    # 100 rows, validation_split=0.25: 75 training rows in batches of 16, the last of 11.
    x = RNG.normal(size=(100, FEATURES)).astype("float32")
    y = RNG.normal(size=(100, 1)).astype("float32")
    model = in_scope()
    r.fit(model, x, y, validation_split=0.25, batch_size=16, callbacks=[AssertEvenBatchSplit()])


class GAN(keras.Model):
    """keras.io's GAN pattern: its own train_step, two optimizers kept by compile(), unlabelled batches."""

    def __init__(self):
        super().__init__()
        self.discriminator = keras.Sequential([keras.Input((FEATURES,)), keras.layers.Dense(1)])
        self.generator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(FEATURES)])

    def call(self, x):  # Keras 3 builds a model by calling it once, in fit()'s set-up
        return self.discriminator(x)

    def compile(self, d_optimizer, g_optimizer):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer

    def train_step(self, real):
        batch = tf.shape(real)[0]
        fake = self.generator(tf.random.normal((batch, 2)))
        labels = tf.concat([tf.ones((batch, 1)), tf.zeros((batch, 1))], axis=0)
        with tf.GradientTape() as tape:
            logits = self.discriminator(tf.concat([fake, real], axis=0))
            d_loss = tf.nn.compute_average_loss(keras.losses.binary_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        with tf.GradientTape() as tape:
            logits = self.discriminator(self.generator(tf.random.normal((batch, 2))))
            g_loss = tf.nn.compute_average_loss(
                keras.losses.binary_crossentropy(tf.zeros((batch, 1)), logits, from_logits=True)
            )
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        return {"d_loss": d_loss, "g_loss": g_loss}


@scenario(replicas=(2,), multiworker=())
def ev_gan_partial_last_batch(r):
    with STRATEGY.scope():
        gan = GAN()
        gan.compile(keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3))
        if FLAVOUR == "keras3":  # slots made before fit: its traced step cannot create them under a strategy
            gan.d_optimizer.build(gan.discriminator.trainable_variables)
            gan.g_optimizer.build(gan.generator.trainable_variables)
    real = tf.data.Dataset.from_tensor_slices(X[: 4 * B + 5]).batch(B)  # 4 full batches, then 5 rows
    callbacks = [AssertMirroredVariables(STRATEGY), AssertEvenBatchSplit()]
    try:
        gan.fit(real, epochs=2, verbose=0, callbacks=callbacks)
    finally:
        r.note(d_steps=int(tf_weight(gan.d_optimizer.iterations).numpy()))


@scenario(replicas=(2,), multiworker=())
def tb_guard_error_frames(r):
    # Issue 19: a guard's error, as the user's traceback shows it.
    import traceback as tb

    model = in_scope()
    try:
        model.fit(batches([B, B + 1, B]), verbose=0, callbacks=[AssertEvenBatchSplit()])
    except mirrorguard.UnevenBatchError as error:
        frames = [(frame.filename, frame.name) for frame in tb.extract_tb(error.__traceback__)]
        package = os.path.dirname(mirrorguard.__file__) + os.sep
        r.note(
            last=frames[-1][0].startswith(package),
            ours=[name for filename, name in frames if filename.startswith(package)],
            first=os.path.basename(frames[0][0]),
        )


@scenario(replicas=(2,), multiworker=())
def tb_partial_warning_location(r):
    model = in_scope()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X[: 3 * B + 1], Y[: 3 * B + 1], batch_size=B, verbose=0, callbacks=[AssertEvenBatchSplit()])  # FIT LINE
    ours = [w for w in caught if str(w.message).startswith("UnevenBatchError")]
    fit_line = next(i for i, line in enumerate(open(__file__), 1) if line.rstrip().endswith("# FIT LINE"))
    r.note(locations=[(os.path.basename(w.filename), w.lineno) for w in ours], fit_line=fit_line)


# Harness ---------------------------------------------------------------------------


class Run:
    """What one scenario observed."""

    def __init__(self):
        self.result = {"error": None, "message": "", "attrs": {}, "steps": None, "warnings": [], "notes": {}}
        self.model = None

    def fit(self, model, *args, **kwargs):
        self.model = model
        kwargs.setdefault("verbose", 0)
        try:
            return model.fit(*args, **kwargs)
        finally:
            self.result["steps"] = steps_run(model)

    def explained(self, program, model=None):
        self.model = model
        with mirrorguard.explain_errors():
            program()

    def note(self, **notes):
        self.result["notes"].update(notes)

    def record(self, error):
        self.result["error"] = type(error).__name__
        self.result["message"] = str(error)
        self.result["cause"] = type(error.__cause__).__name__ if error.__cause__ else None
        self.result["cause_message"] = str(error.__cause__) if error.__cause__ else None
        for attr in ("variables", "global_batch_size", "num_replicas", "split", "step", "epoch"):
            if hasattr(error, attr):
                value = getattr(error, attr)
                self.result["attrs"][attr] = list(value) if isinstance(value, tuple) else value
        if self.model is not None and self.result["steps"] is None:
            self.result["steps"] = steps_run(self.model)


def main():
    only = set(filter(None, ARGS.only.split(",")))
    results = {
        "_setup": {
            "flavour": FLAVOUR,
            "replicas": N,
            "multiworker": MULTIWORKER,
            "even_split": greedy_split(B + 1, N),
            "zero_split": greedy_split(ZERO_ROWS, N) if ZERO_ROWS else None,
            "B": B,
        }
    }
    for name, function in SCENARIOS.items():
        if only and not name.startswith(tuple(only)):
            continue
        run = Run()
        started = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                function(run)
            except Exception as error:  # noqa: BLE001 - the result is the observation
                run.record(error)
                run.result["traceback"] = traceback.format_exc()[-3000:]
        run.result["warnings"] = [
            str(w.message) for w in caught if str(w.message).startswith(("NotMirroredError:", "UnevenBatchError:"))
        ]
        run.result["seconds"] = round(time.perf_counter() - started, 2)
        results[name] = run.result
    print(PREFIX + json.dumps(results), flush=True)


if __name__ == "__main__":
    main()
