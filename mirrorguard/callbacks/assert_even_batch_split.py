"""AssertEvenBatchSplit: every training step's global batch must split evenly across replicas."""

from __future__ import annotations

import inspect

import tensorflow as tf

from mirrorguard.callbacks import _hooks, _split
from mirrorguard.callbacks._keras import Callback, check_choice, report, tf_variable
from mirrorguard.callbacks.assert_mirrored_variables import not_applicable_under_pss
from mirrorguard.errors import UnevenBatchError
from mirrorguard.runtime import compat


def _rows(data):
    """Rows of this replica's batch, from the first input tensor, as a host int32 tensor."""
    for leaf in tf.nest.flatten(data):
        if leaf is None:
            continue
        if isinstance(leaf, tf.RaggedTensor):
            return tf.cast(leaf.nrows(), tf.int32)
        if isinstance(leaf, tf.SparseTensor):
            return tf.cast(leaf.dense_shape[0], tf.int32)
        if getattr(getattr(leaf, "shape", None), "rank", None) == 0:
            continue
        return tf.shape(leaf, out_type=tf.int32)[0]
    return None


_BUFFER = 1024  # steps recorded per replica under XLA between two host reads


def _first_leaf(x):
    leaves = [leaf for leaf in tf.nest.flatten(x) if leaf is not None]
    return leaves[0] if leaves else None


def _no_remainder(steps) -> str:
    return f"`steps_per_epoch={steps}` ends epochs apart from the data's end, so this is not its partial last batch."


def _training_rows(rows: int, validation_split) -> int:
    # Both flavours keep floor(rows * (1 - validation_split)) rows for training.
    if not validation_split:
        return rows
    return int(rows * (1.0 - float(validation_split)))


def _source(arguments) -> _split.Source:
    """Where fit()'s data leaves its remainder, from fit()'s own arguments."""
    if arguments is None:
        return _split.Source()
    x = arguments.get("x")
    steps = arguments.get("steps_per_epoch")
    shuffle = arguments.get("shuffle", True)
    names = {cls.__name__ for cls in type(x).__mro__}
    if isinstance(x, tf.data.Dataset):
        batches = int(x.cardinality())
        if batches == tf.data.INFINITE_CARDINALITY:
            repeats = "The dataset repeats, so this is not a partial batch at the end of the data."
            return _split.Source("dataset", "none", reason=repeats)
        if steps is not None and steps != batches:
            return _split.Source("dataset", "none", reason=_no_remainder(steps))
        return _split.Source("dataset", "last")
    if names & {"PyDataset", "Sequence"} and hasattr(x, "__getitem__"):
        # Unshuffled, the batches come in index order: the remainder can only be the last.
        return _split.Source("pydataset", "one" if shuffle else "last")
    if inspect.isgenerator(x) or (hasattr(x, "__next__") and not hasattr(x, "__len__")):
        if steps is not None:
            return _split.Source("generator", "none", reason=_no_remainder(steps))
        return _split.Source("generator", "last")
    leaf = _first_leaf(x)
    shape = getattr(leaf, "shape", None)
    if shape is not None and len(shape) > 0 and shape[0] is not None:
        rows = _training_rows(int(shape[0]), arguments.get("validation_split"))
        batch_size = arguments.get("batch_size") or 32
        if steps is not None and steps != -(-rows // batch_size):
            return _split.Source("arrays", "none", rows, reason=_no_remainder(steps))
        return _split.Source("arrays", "last", rows, batch_size=batch_size)
    return _split.Source()


def _host(strategy) -> str:
    spec = tf.DeviceSpec.from_string(strategy.extended.worker_devices[0])
    return spec.replace(device_type="CPU", device_index=0).to_string()


class AssertEvenBatchSplit(_hooks.StepHook, Callback):
    """Asserts that every training step's global batch splits evenly across the replicas.

    tf.distribute gives each replica `ceil(global / replicas)` rows in turn, so a
    global batch of 33 over 2 replicas becomes 17 and 16 rows, and 6 over 4
    becomes 2, 2, 2 and 0. Replicas then average losses over different row
    counts, and a replica with no rows breaks some ops. This callback reports
    such a step, naming the global batch size, the replica count, the split and
    the step, at the latest when the step returns, before the next one runs.

    The last, partial batch of an epoch is handled by `partial_batch`. Keras 3
    fails inside `fit()` on an uneven *first* batch before any callback runs;
    wrap `fit()` in `mirrorguard.explain_errors()` to get an `UnevenBatchError`
    there too.

    Cost: a shape read, a few integer ops on the host and a graph branch per
    step, all on tensor shapes, so no host-device synchronisation; under
    MultiWorkerMirroredStrategy, also one all-reduce of one integer per replica.
    Batch hooks are not overridden, so Keras 3 keeps dispatching steps
    asynchronously. Not active under TPUStrategy or on a single replica; under
    ParameterServerStrategy it says once that it does not apply.

    Example:

    ```python
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input((20,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
    batch_size = 32 * strategy.num_replicas_in_sync
    model.fit(
        x, y, batch_size=batch_size,
        callbacks=[mirrorguard.callbacks.AssertEvenBatchSplit()],
    )
    ```

    Args:
        partial_batch: what to do when only the last batch of an epoch splits
            unevenly: `"warn"`, `"raise"` (treated as a failure, see
            `on_failure`) or `"ignore"`. Defaults to `"warn"`.
        on_failure: `"raise"` to raise `mirrorguard.UnevenBatchError`, `"warn"`
            to emit a warning and let training go on. Defaults to `"raise"`.
    """

    def __init__(self, partial_batch="warn", on_failure="raise"):
        super().__init__()
        check_choice("partial_batch", partial_batch, ("warn", "raise", "ignore"))
        check_choice("on_failure", on_failure, ("raise", "warn"))
        self.partial_batch = partial_batch
        self.on_failure = on_failure
        self._records: list[_split.Record] = []  # appended from TF's threads
        self._judge = _split.Judge()
        self._warned: set = set()
        self._active = False
        self._source = _split.Source()
        self._buffer = None  # per-replica rows of recent steps, under XLA
        self._largest = None  # largest global batch so far, for PyDataset input
        self._xla = False
        self._read_upto = 0  # under XLA: steps before this one have been read
        self._buffer_largest = None
        self._calls_since_read = 0

    def applies(self, strategy) -> bool:
        """Whether batches can split unevenly under `strategy`: several replicas, not a TPU."""
        return strategy.num_replicas_in_sync > 1 and not isinstance(
            strategy, (tf.distribute.TPUStrategy, tf.distribute.experimental.TPUStrategy)
        )

    def on_train_begin(self, logs=None):
        self._records = []
        self._warned = set()
        self._xla = False
        self._active = False
        self._buffer = None
        if not_applicable_under_pss(self):
            return
        strategy = self.model.distribute_strategy
        self._active = self.applies(strategy)
        if not self._active:
            return
        fit = _hooks.running_fit(self.model)
        self._source = _source(fit.arguments if fit is not None else None)
        with tf.device(_host(strategy)):
            # Steps counted by the guard itself: a model whose train_step drives
            # optimizers of its own (a GAN's) never moves `model.optimizer.iterations`.
            self._steps = tf.Variable(0, dtype=tf.int64, trainable=False, name="mirrorguard_steps")
            self._largest = None
            if self._source.remainder == "one":
                self._largest = tf.Variable(0, trainable=False, name="mirrorguard_largest_batch")
        if getattr(self.model, "jit_compile", False) is True:
            # XLA cannot call back into Python: the compiled step writes each
            # replica's rows into a variable that the host reads now and then.
            with strategy.scope():
                self._buffer = tf.Variable(
                    tf.zeros([_BUFFER], tf.int32),
                    trainable=False,
                    synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.NONE,
                    name="mirrorguard_rows",
                )
        self._read_upto = self._iterations()
        self._calls_since_read = 0
        self._buffer_largest = None
        _hooks.install(self.model, self)

    def on_epoch_begin(self, epoch, logs=None):
        if self._active:
            steps = (self.params or {}).get("steps")
            self._judge.start_epoch(epoch, self._iterations(), steps, self._source.remainder)

    def on_epoch_end(self, epoch, logs=None):
        if self._active:
            records = self._drain(final=True)
            largest = int(self._largest.numpy()) if self._largest is not None else None
            if self._xla and self._source.remainder == "one":
                largest = self._buffer_largest
            self._act(self._judge.end_epoch(records, largest))

    def after_call(self, model):
        self._calls_since_read += 1
        self._act(self._judge.after_call(self._drain()))

    # Graph side: runs in replica context while Keras traces the train step.

    def before_step(self, model, data):
        context = tf.distribute.get_replica_context()
        rows = _rows(data)
        if context is None or rows is None:
            return
        if compat.in_xla_context():
            self._xla = True
            if self._buffer is not None:
                # Only ops XLA compiles: each replica writes its rows for this step.
                slot = tf.reshape(tf.cast(tf_variable(model.optimizer.iterations) % _BUFFER, tf.int32), [1, 1])
                self._buffer.assign(tf.tensor_scatter_nd_update(self._buffer.read_value(), slot, tf.reshape(rows, [1])))
            return
        strategy = context.strategy
        replicas = strategy.num_replicas_in_sync
        if len(strategy.extended.worker_devices) == replicas:
            # All replicas are in this process: merge_call only joins the replica
            # threads while tracing, so the graph gains no communication.
            context.merge_call(self._check, args=(rows,))
        else:
            # Other workers' rows are only known by asking them.
            mine = tf.one_hot(context.replica_id_in_sync_group, replicas, dtype=tf.int32) * rows
            everyone = context.all_reduce(tf.distribute.ReduceOp.SUM, mine)
            context.merge_call(self._check, args=(everyone,), kwargs={"gathered": True})

    def _check(self, strategy, value, gathered=False):
        values = strategy.experimental_local_results(value)
        with tf.device(_host(strategy)):
            split = tf.identity(values[0]) if gathered else tf.stack(values)
            even = tf.logical_and(split[0] > 0, tf.reduce_all(tf.equal(split, split[0])))
            step = self._steps.assign_add(1) - 1
            if self._largest is not None:
                # A PyDataset's remainder is told apart by being shorter than the rest.
                largest = self._largest.assign(tf.maximum(self._largest, tf.reduce_sum(split)))
            else:
                largest = tf.constant(-1)
            tf.cond(
                even,
                lambda: tf.constant(0),
                lambda: tf.py_function(self._record, [split, step, largest], Tout=tf.int32),
            )

    def _record(self, split, step, largest):
        largest = int(largest)
        self._records.append(
            _split.Record(int(step), tuple(int(r) for r in split.numpy()), largest if largest >= 0 else None)
        )
        return 0

    # Host side.

    def _iterations(self) -> int:
        # Once per epoch; Keras has just synchronised to report the last epoch.
        if self._buffer is not None:  # XLA steps are numbered by the optimizer (see before_step)
            return int(tf_variable(self.model.optimizer.iterations).numpy())
        return int(self._steps.numpy())

    def _drain(self, final=False) -> list[_split.Record]:
        if self._xla and self._buffer is not None:
            # Reading the buffer waits for the device: at an epoch's end, or
            # before it can wrap around.
            if final or self._calls_since_read * self._steps_per_call() >= _BUFFER // 2:
                self._records.extend(self._read_buffer())
        records, self._records = self._records, []
        return records

    def _steps_per_call(self) -> int:
        return compat.steps_per_execution(self.model)

    def _read_buffer(self) -> list[_split.Record]:
        upto = self._iterations()
        columns = [v.numpy() for v in self.model.distribute_strategy.experimental_local_results(self._buffer)]
        steps = range(max(self._read_upto, upto - _BUFFER), upto)
        splits = [(step, tuple(int(column[step % _BUFFER]) for column in columns)) for step in steps]
        self._buffer_largest = max([self._buffer_largest or 0, *(sum(split) for _, split in splits)])
        records = [
            _split.Record(step, split, self._buffer_largest if self._source.remainder == "one" else None)
            for step, split in splits
            if not _split.is_even(list(split))
        ]
        self._read_upto = upto
        self._calls_since_read = 0
        return records

    def _act(self, verdicts):
        for verdict in verdicts:
            if verdict.partial:
                if self.partial_batch == "ignore":
                    continue
                message = _split.partial_message(verdict.record, verdict.epoch, verdict.batch, self._source)
                policy = self.on_failure if self.partial_batch == "raise" else "warn"
            else:
                message = _split.uneven_message(verdict.record, verdict.epoch, verdict.batch, self._source)
                policy = self.on_failure
            error = UnevenBatchError(message)
            error.global_batch_size = verdict.record.global_batch
            error.num_replicas = len(verdict.record.split)
            error.split = verdict.record.split
            error.step = verdict.batch
            error.epoch = verdict.epoch
            if policy == "raise":
                _hooks.uninstall(self.model, self)
                raise error
            key = (verdict.partial, verdict.record.split)
            if key not in self._warned:  # a partial batch recurs every epoch
                self._warned.add(key)
                report(error, "warn")
