"""AssertEvenBatchSplit: every training step's global batch must split evenly across replicas."""

from __future__ import annotations

import tensorflow as tf

from mirrorguard.callbacks import _hooks, _split
from mirrorguard.callbacks._keras import Callback, check_choice, report, tf_variable
from mirrorguard.errors import UnevenBatchError


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


def _host(strategy) -> str:
    spec = tf.DeviceSpec.from_string(strategy.extended.worker_devices[0])
    return spec.replace(device_type="CPU", device_index=0).to_string()


class AssertEvenBatchSplit(Callback, _hooks.StepHook):
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
    asynchronously. Not active under TPUStrategy or on a single replica.

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

    def set_model(self, model):
        super().set_model(model)
        strategy = model.distribute_strategy
        self._active = strategy.num_replicas_in_sync > 1 and not isinstance(
            strategy, (tf.distribute.TPUStrategy, tf.distribute.experimental.TPUStrategy)
        )
        if self._active:
            _hooks.install(model, self)

    def on_train_begin(self, logs=None):
        self._records = []
        self._warned = set()
        if self._active:
            _hooks.wrap_train_function(self.model)

    def on_epoch_begin(self, epoch, logs=None):
        if self._active:
            steps = (self.params or {}).get("steps")
            self._judge.start_epoch(epoch, self._iterations(), steps)

    def on_epoch_end(self, epoch, logs=None):
        if self._active:
            self._act(self._judge.end_epoch(self._drain()))

    def on_train_end(self, logs=None):
        _hooks.uninstall(self.model, self)

    def after_call(self, model):
        self._act(self._judge.after_call(self._drain()))

    # Graph side: runs in replica context while Keras traces the train step.

    def before_step(self, model, data):
        context = tf.distribute.get_replica_context()
        rows = _rows(data)
        if context is None or rows is None:
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
            step = tf.cast(tf_variable(self.model.optimizer.iterations), tf.int64)
            tf.cond(
                even,
                lambda: tf.constant(0),
                lambda: tf.py_function(self._record, [split, step], Tout=tf.int32),
            )

    def _record(self, split, step):
        self._records.append(_split.Record(int(step), tuple(int(r) for r in split.numpy())))
        return 0

    # Host side.

    def _iterations(self) -> int:
        # Once per epoch; Keras has just synchronised to report the last epoch.
        return int(tf_variable(self.model.optimizer.iterations).numpy())

    def _drain(self) -> list[_split.Record]:
        records, self._records = self._records, []
        return records

    def _act(self, verdicts):
        for verdict in verdicts:
            if verdict.partial:
                if self.partial_batch == "ignore":
                    continue
                message = _split.partial_message(verdict.record, verdict.epoch, verdict.batch)
                policy = self.on_failure if self.partial_batch == "raise" else "warn"
            else:
                message = _split.uneven_message(verdict.record, verdict.epoch, verdict.batch)
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
                report(error, "warn", stacklevel=4)
