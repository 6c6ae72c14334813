"""The replica-count oracle: the same global batch must give the same update on 1 and on N replicas.

That is the invariant of synchronous data parallelism, and every numeric
tf.distribute mistake breaks it: a loss averaged per replica (updates N times too
large), a regularisation loss counted once per replica, a plain variable that every
replica updates. :func:`compare_replicas` trains the user's own training step on
MirroredStrategy over 1 logical CPU device and over N, from identical weights, on
the same global batches, compares every variable after every step, and says what
the differences look like.

Nothing here imports TensorFlow at import time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from mirrorguard.testkit import _model_parts as parts_of

__all__ = [
    "Diagnosis",
    "ReplicaMismatchError",
    "ReplicaReport",
    "VariableDiff",
    "compare_replicas",
    "repeat_replica_shares",
]

# Float32 CPU reductions sum in another order on N replicas (each replica sums its
# share, then the shares are summed), so every reduction differs by a few ulps and
# the differences grow through the network and the steps. Measured on the test
# programs (2 steps, SGD and Adam): at most 1.5e-6 of how far a variable moved; on
# the reference ResNet (BatchNorm, Adam) 2e-5, and 7e-4 for tf-keras's BatchNorm
# moving variance (its Bessel correction depends on the replica's batch). Single
# elements can be off by a whole step where Adam normalises a gradient element
# that rounding decides (it nearly cancels out), hence norms over the variable.
# A real mistake changes the update by tens of percent (x2, x0.5, the regulariser's part).
DEFAULT_RTOL = 1e-2
DEFAULT_ATOL = 1e-6
_FLOAT32_ULPS = 16 * 2.0**-23  # slack for values that are large next to their update
_SCALE_SLACK = 0.2  # how close an update ratio must be to N (or N squared) to count as "N"

# Diagnosis causes (the stable part of a report; the messages may be reworded).
AVERAGED_PER_REPLICA = "loss-averaged-per-replica"
AVERAGED_TWICE = "averaged-twice"
REGULARISATION_PER_REPLICA = "regularization-loss-per-replica"
PER_REPLICA_UPDATE = "variable-updated-per-replica"
BATCHNORM = "batchnorm-per-replica-statistics"
RANDOM_LAYERS = "random-layers"
REPORTED_SUMMED = "reported-value-summed"
REPORTED_AVERAGED = "reported-value-averaged"
UNRECOGNISED = "unrecognised"


class ReplicaMismatchError(AssertionError):
    """Training on N replicas did not compute what it computes on one; ``.report`` says how."""

    def __init__(self, report: ReplicaReport):
        super().__init__(report.format())
        self.report = report


class OracleUsageError(ValueError):
    """The oracle was called with something it cannot compare (a message says what to change)."""


@dataclass(frozen=True)
class VariableDiff:
    """How one variable (or reported value) of the N-replica run differs from the 1-replica run.

    ``max_abs`` is the largest absolute difference of an element, over all steps;
    ``max_rel`` is the norm of the difference divided by the norm of how far the
    variable moved on one replica (for reported values: ``|v_N - v_1| / |v_1|``),
    the figure ``rtol`` bounds, its largest value over the steps.
    ``step`` is the first step (1-based) that was out of tolerance, 0 when none was.
    """

    name: str
    kind: str  # "trainable", "non-trainable", "optimizer", "plain" or "reported"
    max_abs: float
    max_rel: float
    step: int = 0

    @property
    def ok(self) -> bool:
        return self.step == 0


@dataclass(frozen=True)
class Diagnosis:
    """A recognised shape of the differences: its cause, what to do, and which variables show it."""

    cause: str
    message: str
    variables: tuple[str, ...] = ()
    expected: bool = False  # a difference that is not a mistake (fails only when strict)


@dataclass
class Comparison:
    """One N-replica run against the baseline run."""

    replicas: int
    diffs: list[VariableDiff]
    diagnoses: list[Diagnosis]
    passed: bool

    @property
    def mismatched(self) -> list[VariableDiff]:
        return [diff for diff in self.diffs if not diff.ok]


@dataclass
class ReplicaReport:
    """What :func:`compare_replicas` found: one comparison per replica count after the first."""

    baseline: int
    global_batch_size: int
    steps: int
    form: str  # "fit" or "custom loop"
    rtol: float
    atol: float
    strict: bool
    comparisons: list[Comparison] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(comparison.passed for comparison in self.comparisons)

    @property
    def diagnoses(self) -> list[Diagnosis]:
        return [d for comparison in self.comparisons for d in comparison.diagnoses]

    @property
    def causes(self) -> list[str]:
        return [d.cause for d in self.diagnoses]

    def format(self, limit: int = 40) -> str:
        """The table and the diagnoses, as the command line prints them."""
        lines = [
            f"replica oracle: {self.form}, {self.steps} step(s) of global batch {self.global_batch_size}, "
            f"{self.baseline} replica vs " + ", ".join(str(c.replicas) for c in self.comparisons)
            + f" (rtol {self.rtol:g}, atol {self.atol:g})"
        ]
        for comparison in self.comparisons:
            verdict = "PASS" if comparison.passed else "MISMATCH"
            lines.append(f"{self.baseline} vs {comparison.replicas} replicas: {verdict}")
            width = max([len(d.name) for d in comparison.diffs] + [8])
            lines.append(f"  {'variable':<{width}}  {'kind':<13}  {'max abs':>10}  {'max rel':>10}  first bad step")
            # Every reported value, and the variables that differ most.
            reported = [d for d in comparison.diffs if d.kind == "reported"]
            variables = sorted((d for d in comparison.diffs if d.kind != "reported"), key=lambda d: (d.ok, -d.max_rel))
            hidden = max(0, len(variables) - limit)
            shown = sorted(variables[:limit] + reported, key=lambda d: (d.ok, d.kind != "reported", -d.max_rel))
            for diff in shown:
                step = "-" if diff.ok else str(diff.step)
                lines.append(
                    f"  {diff.name:<{width}}  {diff.kind:<13}  {diff.max_abs:>10.3g}  {diff.max_rel:>10.3g}  {step}"
                )
            if hidden:
                lines.append(f"  ... and {hidden} more variables (every one is in to_dict() and --format json)")
            for diagnosis in comparison.diagnoses:
                tag = "expected" if diagnosis.expected else "cause"
                lines.append(f"  {tag} ({diagnosis.cause}): {diagnosis.message}")
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)

    __str__ = format

    def to_dict(self) -> dict:
        return {
            "passed": self.passed,
            "form": self.form,
            "baseline": self.baseline,
            "global_batch_size": self.global_batch_size,
            "steps": self.steps,
            "rtol": self.rtol,
            "atol": self.atol,
            "strict": self.strict,
            "notes": list(self.notes),
            "comparisons": [
                {
                    "replicas": c.replicas,
                    "passed": c.passed,
                    "variables": [
                        {"name": d.name, "kind": d.kind, "max_abs": d.max_abs, "max_rel": d.max_rel, "step": d.step}
                        for d in c.diffs
                    ],
                    "diagnoses": [
                        {"cause": d.cause, "message": d.message, "variables": list(d.variables), "expected": d.expected}
                        for d in c.diagnoses
                    ],
                }
                for c in self.comparisons
            ],
        }


def compare_replicas(
    build: Callable[[Any], Any],
    data,
    *,
    global_batch_size: int,
    replicas: tuple[int, ...] = (1, 2),
    steps: int = 2,
    rtol: float | None = None,
    atol: float | None = None,
    strict: bool = False,
) -> ReplicaReport:
    """Check that training computes the same update on ``replicas[0]`` replicas as on each other count.

    ``build(strategy)`` builds inside ``strategy.scope()`` and returns either a
    compiled Keras model, which the oracle trains with ``fit(..., shuffle=False)``,
    or a pair ``(model, train_step)``: ``train_step(batch)`` runs one distributed
    step (a ``tf.function`` around ``strategy.run``) on one element of
    ``strategy.experimental_distribute_dataset(...)``; what it returns (a scalar or
    a dict of scalars, reduced across replicas) is compared as the reported loss.
    ``build`` is called once per replica count; it must build the same model each
    time (the oracle copies the first build's initial weights into the others,
    and any optimizer state that already exists, rather than re-seeding).

    ``data`` is a ``tf.data.Dataset`` of unbatched examples or an ``(x, y)`` pair
    of arrays; the oracle takes ``steps`` batches of ``global_batch_size`` from it,
    in order. It splits the CPU into ``max(replicas)`` logical devices (once per
    process: call it before TensorFlow starts, or in a process whose CPU is
    already split into at least that many), and runs MirroredStrategy over the
    first ``n`` devices for each ``n``.

    Compared after every step: every trainable and non-trainable weight of the
    model, the optimizer's variables, plain ``tf.Variable``s that ``build``
    created outside any strategy scope, and the reported loss and metrics.
    A variable passes when ``||w_N - w_1|| <= atol * sqrt(size) + rtol * ||w_1 - w_0||
    + 16 ulp * ||w_1||`` (Euclidean norms over the variable, ``w_0`` its initial
    value): differences are measured against the update, which is what the
    mistakes change, not against the weight, and over the whole variable, since
    Adam can turn the rounding noise of a gradient element that cancels out into a
    full step of that one element. Defaults: ``rtol=1e-2``, ``atol=1e-6``; float32
    reductions summed in another order stay below 1e-4 of the update over a few
    steps (measured), while the mistakes change it by tens of percent or more.
    The noise grows with the steps (6 steps of the reference ResNet reach 1e-2 on
    a few variables): keep ``steps`` small, or loosen ``rtol`` with more.

    Randomness: Dropout, GaussianDropout, AlphaDropout and GaussianNoise layers are
    switched off (rate 0) in both runs, since each replica draws its own mask;
    other random layers (augmentation) are left alone and named if the runs
    differ. Unsynchronised BatchNormalization normalises each replica's share with
    its own statistics, so its runs differ by design: that is reported as expected
    and passes unless ``strict`` (use ``SyncBatchNormalization`` /
    ``BatchNormalization(synchronized=True)`` to compare strictly).

    Returns the :class:`ReplicaReport`; raises :class:`ReplicaMismatchError`
    carrying it when a comparison fails.
    """
    counts = _check_arguments(replicas, steps, global_batch_size)
    rtol = DEFAULT_RTOL if rtol is None else float(rtol)
    atol = DEFAULT_ATOL if atol is None else float(atol)
    import tensorflow as tf

    devices = _devices(tf, max(counts))
    batches = _global_batches(tf, data, global_batch_size, steps)

    subjects = [_Subject.build(tf, build, _strategy(tf, devices[:n])) for n in counts]
    baseline, others = subjects[0], subjects[1:]
    initial = baseline.read()
    for subject in others:
        subject.load(initial, baseline)
    traces = [subject.train(tf, batches, steps) for subject in subjects]

    report = ReplicaReport(
        baseline=counts[0],
        global_batch_size=global_batch_size,
        steps=steps,
        form=baseline.form,
        rtol=rtol,
        atol=atol,
        strict=strict,
        notes=_notes(baseline),
    )
    for subject, trace in zip(others, traces[1:]):
        report.comparisons.append(_compare(baseline, traces[0], subject, trace, rtol, atol, strict))
    if not report.passed:
        raise ReplicaMismatchError(report)
    return report


def repeat_replica_shares(data, global_batch_size: int, replicas: tuple[int, ...] = (1, 2)):
    """Unbatched examples whose every global batch is ``max(replicas)`` copies of one share.

    BatchNormalization (and any layer or loss that reads batch statistics) then
    sees the same statistics on every replica count: one device gets the share
    ``max(replicas)`` times, each of N replicas gets it ``max(replicas)/N`` times.
    Pass the result as ``data`` with ``strict=True`` to compare a BatchNorm model
    exactly; the mistakes the oracle looks for still change the update as before.
    """
    import tensorflow as tf

    counts = tuple(replicas)
    most = max(counts)
    if global_batch_size % most or any(most % n for n in counts):
        raise OracleUsageError(
            f"repeat_replica_shares needs every replica count to divide {most}, and {most} to divide "
            f"the global batch {global_batch_size}; got replicas={counts!r}"
        )
    dataset = data if isinstance(data, tf.data.Dataset) else tf.data.Dataset.from_tensor_slices(tuple(data))
    share = global_batch_size // most

    def repeat(*element):
        element = element[0] if len(element) == 1 else element
        return tf.nest.map_structure(lambda t: tf.concat([t] * most, axis=0), element)

    return dataset.batch(share, drop_remainder=True).map(repeat).unbatch()


# ---------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------


def _check_arguments(replicas, steps, global_batch_size) -> tuple[int, ...]:
    counts = tuple(replicas)
    if len(counts) < 2 or any(not isinstance(n, int) or n < 1 for n in counts) or len(set(counts)) != len(counts):
        raise OracleUsageError(f"replicas must be two or more distinct counts >= 1, like (1, 2); got {replicas!r}")
    if not isinstance(steps, int) or steps < 1:
        raise OracleUsageError(f"steps must be a whole number >= 1; got {steps!r}")
    if not isinstance(global_batch_size, int) or global_batch_size < 1:
        raise OracleUsageError(f"global_batch_size must be a whole number >= 1; got {global_batch_size!r}")
    uneven = [n for n in counts if global_batch_size % n]
    if uneven:
        raise OracleUsageError(
            f"global_batch_size {global_batch_size} does not split evenly over {uneven[0]} replicas; "
            f"uneven shares change the update by themselves (choose a multiple of {math.lcm(*counts)})"
        )
    return counts


def _devices(tf, count: int) -> list[str]:
    from mirrorguard.testkit.devices import DevicesAlreadySetError, split_cpu

    try:
        return split_cpu(count)
    except DevicesAlreadySetError as error:
        found = len(tf.config.list_logical_devices("CPU"))
        if found >= count:
            return [f"/cpu:{i}" for i in range(found)]
        raise OracleUsageError(
            f"the replica oracle needs {count} logical CPU devices, but {error}; run it in a fresh "
            "process (or split the CPU into enough devices before TensorFlow starts)"
        ) from None


_STRATEGIES: dict[tuple[str, ...], Any] = {}


def _strategy(tf, devices: list[str]):
    # One strategy per device set for the whole process: a second MirroredStrategy
    # over the same devices reuses the first one's collective instance keys, and
    # TensorFlow then mixes up their all-reduces ("Shape mismatch in the collective
    # instance 100") when the models differ.
    key = tuple(devices)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = tf.distribute.MirroredStrategy(list(devices))
    return _STRATEGIES[key]


def _global_batches(tf, data, global_batch_size: int, steps: int):
    if isinstance(data, tf.data.Dataset):
        dataset = data
    elif isinstance(data, (tuple, list)) and len(data) == 2:
        dataset = tf.data.Dataset.from_tensor_slices(tuple(data))
    else:
        raise OracleUsageError(
            "data must be a tf.data.Dataset of unbatched examples or an (x, y) pair of arrays; "
            f"got {type(data).__name__}"
        )
    needed = global_batch_size * steps
    batches = dataset.take(needed).batch(global_batch_size, drop_remainder=True)
    options = tf.data.Options()
    options.deterministic = True  # the same batches, in the same order, for every run
    batches = batches.with_options(options)
    have = sum(1 for _ in batches)
    if have < steps:
        raise OracleUsageError(
            f"data holds fewer than {needed} examples ({steps} steps x global batch {global_batch_size})"
        )
    # A known length: fit then stops after the last batch instead of warning it ran out of data.
    return batches.apply(tf.data.experimental.assert_cardinality(steps))


def _notes(subject: _Subject) -> list[str]:
    notes = []
    if subject.parts.noise_disabled:
        notes.append("switched off for the comparison (masks are drawn per replica): "
                     + ", ".join(subject.parts.noise_disabled))
    if subject.parts.batchnorm_layers:
        notes.append(
            f"{len(subject.parts.batchnorm_layers)} BatchNormalization layer(s) use per-replica statistics"
        )
    if subject.parts.random_layers:
        notes.append("random layers, drawn per replica: " + ", ".join(subject.parts.random_layers))
    return notes


@dataclass
class _Var:
    name: str
    kind: str
    variable: Any  # the TensorFlow variable
    integer: bool
    batchnorm: bool = False
    regularised: bool = False


@dataclass
class _Trace:
    states: list[list[Any]]  # states[t][i]: value of variable i after step t (t=0: before training)
    reported: list[dict[str, float]]  # reported[t-1]: the loss/metrics step t reported
    unreported: str = ""  # why the reported values could not be compared


class _Subject:
    """One build under one strategy: its variables, and how to train it one step at a time."""

    def __init__(self, strategy, model, train_step, plain, parts):
        self.strategy = strategy
        self.model = model
        self.train_step = train_step
        self.form = "fit" if train_step is None else "custom loop"
        self.plain = plain
        self.parts = parts
        self.optimizer = None if train_step is None else _optimizer_of(self)

    @classmethod
    def build(cls, tf, build, strategy) -> _Subject:
        plain: list = []

        def record_plain(next_creator, **kwargs):
            variable = next_creator(**kwargs)
            # Inside a strategy scope the strategy makes the variable distributed;
            # outside, it is one plain variable that every replica updates.
            if not tf.distribute.has_strategy():
                plain.append(variable)
            return variable

        with tf.variable_creator_scope(record_plain):
            built = build(strategy)
        if isinstance(built, (tuple, list)):
            if len(built) != 2 or not callable(built[1]):
                raise OracleUsageError(
                    "build(strategy) must return a compiled model or a (model, train_step) pair; "
                    f"got a {type(built).__name__} of {len(built)}"
                )
            model, train_step = built
        else:
            model, train_step = built, None
            if getattr(model, "optimizer", None) is None or not hasattr(model, "fit"):
                raise OracleUsageError(
                    "build(strategy) returned a model that is not compiled; compile it inside the "
                    "scope, or return (model, train_step) for a custom loop"
                )
        if not getattr(model, "weights", None):
            raise OracleUsageError(
                f"the model {getattr(model, 'name', model)!r} has no weights yet; build it inside build() "
                "(give it an Input, or call it once) so its initial weights can be copied"
            )
        return cls(strategy, model, train_step, plain, parts_of.inspect_model(model))

    def variables(self) -> list[_Var]:
        """The compared variables, in an order that is the same for every build."""
        found: list[_Var] = []
        seen: set[int] = set()
        model = self.model
        trainable = {id(parts_of.tf_variable(v)) for v in model.trainable_weights}

        def add(variable, kind: str) -> None:
            tf_var = parts_of.tf_variable(variable)
            if id(tf_var) in seen:
                return
            seen.add(id(tf_var))
            name = getattr(variable, "path", None) or variable.name.split(":")[0]
            found.append(
                _Var(
                    name=name,
                    kind=kind,
                    variable=tf_var,
                    integer=tf_var.dtype.is_integer or tf_var.dtype.is_bool,
                    batchnorm=id(tf_var) in self.parts.batchnorm_stats,
                    regularised=id(tf_var) in self.parts.regularised,
                )
            )

        for variable in model.weights:
            add(variable, "trainable" if id(parts_of.tf_variable(variable)) in trainable else "non-trainable")
        # Plain variables before the optimizer's: an optimizer adds its slots at the
        # first step, at the end of the list, so earlier positions never shift.
        for variable in self.plain:
            add(variable, "plain")
        optimizer = getattr(model, "optimizer", None) if self.train_step is None else self.optimizer
        for variable in parts_of.optimizer_variables(optimizer):
            add(variable, "optimizer")
        return found

    def read(self) -> list[Any]:
        import numpy as np

        return [np.array(v.variable.numpy()) for v in self.variables()]

    def load(self, values: list[Any], source: _Subject) -> None:
        mine, theirs = self.variables(), source.variables()
        shapes = [tuple(v.variable.shape) for v in mine]
        expected = [tuple(v.variable.shape) for v in theirs]
        if shapes != expected:
            raise OracleUsageError(
                f"build(strategy) built different variables on {source.strategy.num_replicas_in_sync} and "
                f"{self.strategy.num_replicas_in_sync} replicas ({len(expected)} vs {len(shapes)}); "
                "it must build the same model every time it is called"
            )
        for var, value in zip(mine, values):
            var.variable.assign(value)

    def train(self, tf, batches, steps: int) -> _Trace:
        trace = _Trace(states=[self.read()], reported=[])
        if self.train_step is None:
            self._fit(tf, batches, trace)
        else:
            for batch in self.strategy.experimental_distribute_dataset(batches):
                trace.reported.append(self._reported(self.train_step(batch), trace))
                trace.states.append(self.read())
        if len(trace.states) != steps + 1:
            raise OracleUsageError(
                f"the oracle saw {len(trace.states) - 1} step(s), not {steps}; it reads the variables "
                "after every step, so compile with steps_per_execution=1 (the default)"
            )
        # Variables made during training (optimizer slots at the first step) start from zero.
        import numpy as np

        final = trace.states[-1]
        for state in trace.states:
            state.extend(np.zeros_like(value) for value in final[len(state):])
        return trace

    def _fit(self, tf, batches, trace: _Trace) -> None:
        keras = parts_of.keras_of(self.model)
        subject = self

        class Snapshot(keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                trace.reported.append({k: float(v) for k, v in (logs or {}).items() if _is_scalar(v)})
                trace.states.append(subject.read())

        self.model.fit(batches, epochs=1, shuffle=False, verbose=0, callbacks=[Snapshot()])

    def _reported(self, value, trace: _Trace) -> dict[str, float]:
        import tensorflow as tf

        if value is None:
            return {}
        items = value.items() if isinstance(value, dict) else [("loss", value)]
        if isinstance(value, (tuple, list)):
            items = [(f"output {i}", v) for i, v in enumerate(value)]
        reported = {}
        for key, item in items:
            if isinstance(item, tf.distribute.DistributedValues):
                trace.unreported = (
                    "train_step returned per-replica values; reduce them with strategy.reduce(...) "
                    "to have the reported loss compared"
                )
                continue
            if _is_scalar(item):
                reported[str(key)] = float(item)
        return reported


def _optimizer_of(subject: _Subject):
    """A custom loop's optimizer: the model's when compiled, else one the train_step reaches.

    A custom loop's ``train_step`` is a tf.function around ``strategy.run(step_fn)``,
    and ``step_fn`` closes over (or reads a global) optimizer: follow closures and
    globals of the functions it reaches, a few levels deep.
    """
    optimizer = getattr(subject.model, "optimizer", None)
    if optimizer is not None:
        return optimizer
    queue, seen = [subject.train_step], set()
    for _ in range(64):
        if not queue:
            break
        function = queue.pop(0)
        function = getattr(function, "python_function", function)
        function = getattr(function, "__func__", function)
        if id(function) in seen or not hasattr(function, "__code__"):
            continue
        seen.add(id(function))
        values = []
        for cell in function.__closure__ or ():
            try:
                values.append(cell.cell_contents)
            except ValueError:
                continue
        values += [function.__globals__[name] for name in function.__code__.co_names if name in function.__globals__]
        for value in values:
            if hasattr(value, "apply_gradients") and not isinstance(value, type):
                return value
            if callable(value) and not isinstance(value, type):
                queue.append(value)
    return None


def _is_scalar(value) -> bool:
    try:
        import numpy as np

        return np.ndim(value) == 0 and np.issubdtype(np.asarray(value).dtype, np.number)
    except (TypeError, ValueError):
        return False


# ---------------------------------------------------------------------------
# Comparison and diagnosis
# ---------------------------------------------------------------------------


def _compare(baseline, base, subject, trace, rtol, atol, strict) -> Comparison:
    import numpy as np

    variables = baseline.variables()
    if [v.shape for v in base.states[-1]] != [v.shape for v in trace.states[-1]]:
        raise OracleUsageError(
            "the runs ended with different variables; build(strategy) must build the same model every time"
        )
    n, n0 = subject.strategy.num_replicas_in_sync, baseline.strategy.num_replicas_in_sync
    factor = n / n0
    steps = len(base.states) - 1
    diffs: list[VariableDiff] = []
    bad_at: dict[int, int] = {}
    for i, var in enumerate(variables):
        worst_abs = worst_rel = 0.0
        first_bad = 0
        start = base.states[0][i].astype(np.float64)
        for t in range(1, steps + 1):
            mine = trace.states[t][i].astype(np.float64)
            ref = base.states[t][i].astype(np.float64)
            # Norms over the whole variable: Adam turns the rounding noise of a
            # gradient element that (nearly) cancels out into a full-size step of that
            # element, so single elements may differ by a whole update; a mistake
            # moves every element.
            diff = float(np.max(np.abs(mine - ref))) if ref.size else 0.0
            off = float(np.linalg.norm(mine - ref))
            moved = float(np.linalg.norm(ref - start))
            slack = 0.0 if var.integer else _FLOAT32_ULPS * float(np.linalg.norm(ref))
            rel = off / moved if moved > 0 else (0.0 if off == 0 else math.inf)
            worst_abs, worst_rel = max(worst_abs, diff), max(worst_rel, rel)
            if not first_bad and off > atol * math.sqrt(max(ref.size, 1)) + rtol * moved + slack:
                first_bad = t
        diffs.append(VariableDiff(var.name, var.kind, worst_abs, worst_rel, first_bad))
        if first_bad:
            bad_at[i] = first_bad

    reported_bad: dict[str, tuple[int, float]] = {}
    if not base.unreported and not trace.unreported:
        keys = [k for k in (base.reported[0] if base.reported else {}) if all(k in r for r in trace.reported)]
        for key in keys:
            worst_abs = worst_rel = 0.0
            first_bad = 0
            for t in range(1, steps + 1):
                ref, mine = base.reported[t - 1][key], trace.reported[t - 1][key]
                diff = abs(mine - ref)
                rel = diff / abs(ref) if ref else (0.0 if diff == 0 else math.inf)
                worst_abs, worst_rel = max(worst_abs, diff), max(worst_rel, rel)
                if not first_bad and diff > atol + rtol * abs(ref):
                    first_bad = t
                    reported_bad[key] = (t, mine / ref if ref else math.inf)
            diffs.append(VariableDiff(key, "reported", worst_abs, worst_rel, first_bad))

    diagnoses = _diagnose(variables, base, trace, bad_at, reported_bad, factor, baseline.parts)
    failing = [d for d in diffs if not d.ok]
    passed = not failing or (not strict and bool(diagnoses) and all(d.expected for d in diagnoses))
    return Comparison(replicas=n, diffs=diffs, diagnoses=diagnoses, passed=passed)


def _diagnose(variables, base, trace, bad_at, reported_bad, factor, parts) -> list[Diagnosis]:
    """Name the shape of the differences at the first step where any appears."""
    import numpy as np

    firsts = list(bad_at.values()) + [t for t, _ in reported_bad.values()]
    if not firsts:
        return []
    t = min(firsts)
    bad = [i for i, step in bad_at.items() if step == t]
    n = _fmt(factor)
    found: list[Diagnosis] = []

    def ratio(i: int) -> float | None:
        # How far the N-replica run moved the variable in step t, as a multiple of
        # how far the 1-replica run moved it, from the same starting point.
        start = base.states[t - 1][i].astype(np.float64)
        ref = base.states[t][i].astype(np.float64) - start
        mine = trace.states[t][i].astype(np.float64) - start
        norm = float(np.dot(ref.ravel(), ref.ravel()))
        return float(np.dot(mine.ravel(), ref.ravel()) / norm) if norm > 0 else None

    def near(value: float | None, targets) -> bool:
        return value is not None and any(abs(value / target - 1) < _SCALE_SLACK for target in targets)

    counters = [
        i for i in bad
        if variables[i].kind != "trainable" and not variables[i].batchnorm
        and np.ndim(base.states[t][i]) == 0 and ratio(i) is not None and abs(ratio(i) - factor) < 1e-3
    ]
    if counters:
        names = tuple(variables[i].name for i in counters)
        found.append(Diagnosis(
            PER_REPLICA_UPDATE,
            f"{_names(names)} moved {n} times as far in step {t} ({_step_values(base, trace, counters[0], t)}): "
            "a counter or plain variable that every replica updates once. Create it inside "
            "strategy.scope() (a counter with aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA), "
            "or update it outside strategy.run",
            names,
        ))
    rest = [i for i in bad if i not in counters and not variables[i].batchnorm]
    if any(variables[i].batchnorm for i in bad) and not rest:
        found.append(_batchnorm(parts, tuple(variables[i].name for i in bad if variables[i].batchnorm)))
        return found
    if rest:
        ratios = [ratio(i) for i in rest]
        up = [r for r in ratios if near(r, (factor, factor**2))]
        down = [r for r in ratios if near(r, (1 / factor, 1 / factor**2))]
        names = tuple(variables[i].name for i in rest)
        weights_off = [i for i in rest if variables[i].kind == "trainable"]
        if len(up) >= 0.75 * len(ratios):
            found.append(Diagnosis(
                AVERAGED_PER_REPLICA,
                f"every update is ~{n}x the 1-replica update (median ratio {_fmt(_median(up))}): the loss is "
                "averaged over each replica's share and the replicas' gradients are then summed. Divide "
                "by the global batch: tf.nn.compute_average_loss(per_example_loss, "
                "global_batch_size=GLOBAL_BATCH) (and in a train_step override, do not average the "
                "loss yourself)",
                names,
            ))
        elif len(down) >= 0.75 * len(ratios):
            found.append(Diagnosis(
                AVERAGED_TWICE,
                f"every update is ~1/{n} of the 1-replica update (median ratio {_fmt(_median(down))}): "
                f"the loss is averaged twice, e.g. compute_average_loss (or a Keras loss, which already "
                f"divides by the replicas) then divided by num_replicas_in_sync again. Divide by the "
                "global batch once",
                names,
            ))
        elif weights_off and all(variables[i].regularised for i in weights_off):
            found.append(Diagnosis(
                REGULARISATION_PER_REPLICA,
                f"only regularised weights differ ({_names(tuple(variables[i].name for i in weights_off))}): "
                f"the regularisation loss is added on every replica and so counted {n} times. Add "
                "tf.nn.scale_regularization_loss(tf.add_n(model.losses)) instead",
                names,
            ))
        elif parts.batchnorm_layers:
            found.append(_batchnorm(parts, names))
        elif parts.random_layers:
            found.append(Diagnosis(
                RANDOM_LAYERS,
                f"the model has random layers ({', '.join(parts.random_layers)}) that draw per replica; "
                "the runs cannot match. Build the model without them for the oracle, or seed them "
                "statelessly",
                names,
            ))
        else:
            found.append(Diagnosis(
                UNRECOGNISED,
                f"{len(rest)} variable(s) differ from step {t} (update ratios "
                f"{', '.join(_fmt(r) for r in ratios[:4] if r is not None) or 'n/a'}) in no shape mirrorguard "
                "recognises: look for values computed from one replica's share (batch statistics, "
                "per-replica randomness, uneven normalisation)",
                names,
            ))
    if not bad:
        keys = tuple(k for k, (step, _) in reported_bad.items() if step == t)
        ratios = [reported_bad[k][1] for k in keys]
        if ratios and all(near(r, (factor,)) for r in ratios):
            found.append(Diagnosis(
                REPORTED_SUMMED,
                f"the training is the same, but the reported {_names(keys)} is {n}x too large: per-replica "
                "values summed where they should be averaged (reduce a per-replica mean with MEAN, "
                "or a compute_average_loss value with SUM)",
                keys,
            ))
        elif ratios and all(near(r, (1 / factor,)) for r in ratios):
            found.append(Diagnosis(
                REPORTED_AVERAGED,
                f"the training is the same, but the reported {_names(keys)} is 1/{n} of the 1-replica value: "
                "averaged where it should be summed (compute_average_loss already divides by the "
                "global batch; reduce its per-replica values with SUM)",
                keys,
            ))
        else:
            found.append(Diagnosis(
                UNRECOGNISED,
                f"the training is the same, but the reported {_names(keys)} differs (ratio "
                f"{', '.join(_fmt(r) for r in ratios)})",
                keys,
            ))
    return found


def _batchnorm(parts, names) -> Diagnosis:
    return Diagnosis(
        BATCHNORM,
        f"the model has BatchNormalization ({', '.join(parts.batchnorm_layers[:3])}"
        f"{', ...' if len(parts.batchnorm_layers) > 3 else ''}) that normalises each replica's share with "
        "its own statistics, as expected with MirroredStrategy. Use SyncBatchNormalization "
        "(Keras 3: BatchNormalization(synchronized=True)) for global statistics",
        names,
        expected=True,
    )


def _step_values(base, trace, i: int, t: int) -> str:
    ref = base.states[t][i] - base.states[t - 1][i]
    mine = trace.states[t][i] - base.states[t - 1][i]
    return f"+{_fmt(float(mine))} instead of +{_fmt(float(ref))}"


def _median(values) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _names(names) -> str:
    shown = ", ".join(f"`{name}`" for name in names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _fmt(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3g}"
