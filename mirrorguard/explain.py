"""Plain-language explanations for the cryptic errors of a mis-scoped tf.distribute program.

`explain_errors()` never imports TensorFlow or Keras: an error raised by them means
the program already did, so it reads the modules already loaded (and nothing, for any
other error). It can wrap any code, including the import of a training script.

An error is recognised by its type and message, then explained only from evidence:
each rule states what it needs to see (which objects were made under which strategy,
whether the dataset is batched, which call failed on which shapes) and checks it in
what the failing program left in the traceback: the arguments of the Keras call that
failed (`fit`, `compile`...), the frames' local objects, TensorFlow's own frames when
run eagerly. A rule whose evidence is missing does not fire; where the evidence fits
more than one cause, the explanation says what was seen and lists the candidates
instead of picking one. The translation keeps the original message, minus array
values, and chains the original exception as `__cause__` (shortened the same way, so
that a chained traceback does not print pages of weights before the explanation).
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from mirrorguard.callbacks._split import Record, Source, even_sizes, infer_split, remainder_fix, rows_phrase
from mirrorguard.errors import LossReductionError, MirrorGuardError, NotMirroredError, UnevenBatchError
from mirrorguard.runtime import compat

__all__ = ["explain_errors"]

_SCOPE_FIX = (
    "Fix: build the model, create the optimizer and metrics, and call `compile()` "
    "all inside `with strategy.scope():`; `fit()`, `evaluate()`, `predict()` and "
    "`save()` may stay outside."
)
_LAYER_FIX = (
    "Fix: build, call or `adapt()` every layer and load every backbone inside "
    "`with strategy.scope():`, where the model is built and compiled."
)
_VARIABLE = re.compile(r"<tf\.Variable '(?P<name>[^']+?)(?::\d+)?'")
_ARRAY = re.compile(r",? numpy=\s*(?:array\(.*?\)|[^>]*?)(?=>)", re.S)
_STRATEGY_REPR = re.compile(r"<(?P<path>[\w.]+) object at (?P<address>0x[0-9a-fA-F]+)>")
_TRAINING_CALLS = ("fit", "evaluate")  # the Keras 3 calls that reduce the first batch across replicas


# Evidence ------------------------------------------------------------------------


def _loaded(name: str):
    return sys.modules.get(name)


def _tf():
    return _loaded("tensorflow")


def _is_strategy(value) -> bool:
    tf = _tf()
    return tf is not None and isinstance(value, (tf.distribute.Strategy, tf.compat.v1.distribute.Strategy))


def _model_classes() -> tuple[type, ...]:
    classes = []
    for name in ("keras", "tf_keras"):
        module = _loaded(name)
        model = getattr(module, "Model", None) if module is not None else None
        if isinstance(model, type):
            classes.append(model)
    return tuple(classes)


def _is_model(value) -> bool:
    classes = _model_classes()
    return bool(classes) and isinstance(value, classes)


def _is_optimizer(value) -> bool:
    classes = []
    for module_name, paths in (("keras", ("optimizers",)), ("tf_keras", ("optimizers", "optimizers.legacy"))):
        module = _loaded(module_name)
        for path in paths if module is not None else ():
            holder = module
            for part in path.split("."):
                holder = getattr(holder, part, None)
            optimizer = getattr(holder, "Optimizer", None)
            if isinstance(optimizer, type):
                classes.append(optimizer)
    return bool(classes) and isinstance(value, tuple(classes))


def _is_keras3_model(value) -> bool:
    keras = _loaded("keras")
    tf_keras = _loaded("tf_keras")
    if keras is None or not str(getattr(keras, "__version__", "")).startswith("3."):
        return False
    return isinstance(value, keras.Model) and not (tf_keras is not None and isinstance(value, tf_keras.Model))


def _tf_variable(variable):
    """The TensorFlow variable behind a weight (Keras 3 wraps it)."""
    return compat.tf_variable_of(variable)


def _distributed(variable) -> bool:
    tf = _tf()
    return isinstance(_tf_variable(variable), tf.distribute.DistributedValues)


def _replicas(strategy) -> int | None:
    try:
        return int(strategy.num_replicas_in_sync)
    except Exception:  # noqa: BLE001 - a half-built strategy: no evidence either way
        return None


def _model_strategy(model):
    try:
        return model.distribute_strategy
    except Exception:  # noqa: BLE001 - a half-built model: no evidence either way
        return None


def _weights(model) -> list:
    try:
        return list(model.weights)
    except Exception:  # noqa: BLE001 - tf-keras raises for a model not built yet
        return []


def _shape(text: str) -> list[int]:
    return [int(d) for d in text.split(",") if d]


def _leading_dims(value) -> list[int | None] | None:
    """The first dimension of every component of a dataset's elements (None: unknown); None for no spec."""
    tf = _tf()
    try:
        specs = tf.nest.flatten(value.element_spec)
    except Exception:  # noqa: BLE001 - not a dataset after all
        return None
    dims = []
    for spec in specs:
        shape = getattr(spec, "shape", None)
        if shape is None or shape.rank is None:
            return None
        if shape.rank == 0:
            dims.append(-1)  # a scalar component: no rows at all
        else:
            dims.append(shape[0])
    return dims


def _batched(dataset, batch_size: int | None) -> bool | None:
    """Whether the dataset's elements are batches (True), single examples (False), or unknown (None).

    A batching transformation TensorFlow can see (`batch_size`) settles it. Otherwise:
    tf.distribute splits every component of an element along its first dimension, which
    means rows only when every component has the same first dimension; one example's
    `(features, label)` has different ones (5 features, 1 label) or a scalar label.
    """
    if batch_size is not None:
        return True
    dims = _leading_dims(dataset)
    if not dims:
        return None
    if -1 in dims:
        return False
    known = {d for d in dims if d is not None}
    if len(known) > 1:
        return False
    if not known:
        return True  # `batch()` without `drop_remainder` leaves the batch dimension unknown
    return None  # one fixed first dimension shared by all: a drop_remainder batch, or one example


class _Evidence:
    """What a failing program left in its error's traceback, read once and on demand."""

    def __init__(self, error: BaseException):
        self.error = error
        self.traceback = error.__traceback__

    def _compat(self, read, default):
        return self.read(read, self.traceback, default)

    def read(self, read, value, default):
        """`read(value)` from compat.py; `default` (no evidence) if what it reads has moved."""
        try:
            return read(value)
        except compat.CompatError as moved:
            # A Keras or TensorFlow internal moved: the explanation loses this evidence, loudly.
            warnings.warn(f"mirrorguard.explain_errors: {moved}", RuntimeWarning, stacklevel=5)
            return default

    @cached_property
    def keras_calls(self) -> list:
        return self._compat(compat.keras_calls, [])

    @cached_property
    def reduce_calls(self) -> list:
        return self._compat(compat.strategy_reduce_calls, [])

    @cached_property
    def objects(self) -> list:
        """The objects the failing frames held, one level into containers and bound methods."""
        seen, found = set(), []

        def add(value):
            if id(value) not in seen:
                seen.add(id(value))
                found.append(value)

        traceback = self.traceback
        while traceback is not None:
            for value in list(traceback.tb_frame.f_locals.values()):
                add(value)
                owner = getattr(value, "__self__", None)  # a bound method such as `model.fit`
                if owner is not None:
                    add(owner)
                if isinstance(value, (tuple, list)):
                    for item in value[:8]:
                        add(item)
                elif isinstance(value, dict) and len(value) < 64:
                    for item in list(value.values()):
                        add(item)
            traceback = traceback.tb_next
        for call in self.keras_calls:
            for value in (*call.args, *call.kwargs.values()):
                add(value)
        return found

    @cached_property
    def training_call(self):
        """The Keras 3 `fit()`/`evaluate()` call the error came out of, or None."""
        for call in reversed(self.keras_calls):
            if call.name in _TRAINING_CALLS and _is_keras3_model(call.receiver):
                return call
        return None

    def models(self) -> list:
        models = [c.receiver for c in self.keras_calls if _is_model(c.receiver)]
        models += [v for v in self.objects if _is_model(v) and all(v is not m for m in models)]
        return models

    def strategies(self) -> list:
        found = [v for v in self.objects if _is_strategy(v)]
        for model in self.models():
            strategy = _model_strategy(model)
            if _is_strategy(strategy) and all(strategy is not s for s in found):
                found.append(strategy)
        return found

    def strategy_at(self, address: str):
        """The strategy object a message printed as `<... object at 0x...>`, when the frames hold it."""
        for strategy in self.strategies():
            if id(strategy) == int(address, 16):
                return strategy
        return None

    def building_optimizers(self) -> list:
        """Optimizers whose public `build()` was running when the error was raised."""
        found = []
        traceback = self.traceback
        while traceback is not None:
            frame = traceback.tb_frame
            owner = frame.f_locals.get("self")
            if _is_optimizer(owner) and frame.f_code is getattr(type(owner).build, "__code__", None):
                found.append(owner)
            traceback = traceback.tb_next
        return found


def _input_of(call) -> tuple[Source, object]:
    """What the failing `fit()` was given, as the batch-split helpers describe it, and the object."""
    args = call.args[1:] if call.receiver is not None else call.args
    x = args[0] if args else call.kwargs.get("x")
    tf = _tf()
    if isinstance(x, tf.data.Dataset):
        return Source("dataset"), x
    pydataset = tuple(
        cls
        for cls in (
            getattr(getattr(_loaded("keras"), "utils", None), "PyDataset", None),
            getattr(getattr(_loaded("tf_keras"), "utils", None), "Sequence", None),
        )
        if isinstance(cls, type)
    )
    if pydataset and isinstance(x, pydataset):
        return Source("pydataset", "one"), x
    if hasattr(x, "__next__") and hasattr(x, "__iter__"):
        return Source("generator"), x
    if hasattr(x, "shape") and hasattr(x, "__len__"):
        return Source("arrays", rows=len(x)), x
    return Source(), x


# Rules --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rule:
    """One known failure.

    `types` and `pattern` recognise it; `needs` says in words what evidence `build`
    checks before it explains anything. `build(match, message, evidence)` returns the
    explanation, or None when the evidence is missing or points elsewhere.
    """

    types: tuple[str, ...]
    pattern: re.Pattern[str]
    needs: str
    build: Callable[[re.Match[str], str, _Evidence], MirrorGuardError | None]


def _fixed(error_class, cause: str, fix: str = _SCOPE_FIX):
    return lambda _match, _message, _evidence: error_class(f"{cause} {fix}")


def _variables_outside(what: str, fix: str = _LAYER_FIX):
    """A failure that names the variables made outside the scope, when TensorFlow printed them."""

    def build(_match, message, _evidence):
        names = list(dict.fromkeys(m.group("name") for m in _VARIABLE.finditer(message)))
        if names:
            listed = ", ".join(f"`{n}`" for n in names)
            layers = list(dict.fromkeys(n.rsplit("/", 1)[0] for n in names if "/" in n))
            kind = "layer" if len(layers) == 1 else "layers"
            of = f" ({kind} {', '.join(f'`{layer}`' for layer in layers)})" if layers else ""
            subject = "The variable" if len(names) == 1 else "The variables"
            verb = "was" if len(names) == 1 else "were"
            cause = f"{subject} {listed}{of} {verb} created outside `strategy.scope()`: {what}"
        else:
            cause = f"Some model variables were created outside `strategy.scope()`: {what}"
        error = NotMirroredError(f"{cause} {fix}")
        error.variables = tuple(names)
        return error

    return build


def _used_outside_scope(match, _message, evidence: _Evidence) -> MirrorGuardError | None:
    """Keras 3: an object made under a strategy created variables outside that strategy's scope.

    Needs: the models the failing frames hold, and whether their weights are the
    strategy's; an optimizer whose `build()` was running. With neither, the causes
    that raise this are listed.
    """
    strategy = evidence.strategy_at(match.group("address"))
    if strategy is not None:
        name = _strategy_name(strategy)
    else:  # not held by any frame: the class TensorFlow printed, as users spell it
        name = match.group("path").rsplit(".", 1)[-1]
        name = {"CollectiveAllReduceStrategy": "MultiWorkerMirroredStrategy"}.get(name, name)
    models = [m for m in evidence.models() if _weights(m)]
    outside = [m for m in models if not all(_distributed(w) for w in _weights(m))]
    builders = evidence.building_optimizers()
    if outside:
        model = outside[0]
        optimizer = getattr(model, "optimizer", None)
        iterations = getattr(optimizer, "iterations", None)
        made_inside = iterations is not None and _distributed(iterations)
        whose = "its optimizer was created inside it" if made_inside else "its optimizer or `compile()` was inside it"
        return NotMirroredError(
            f"The variables of model `{model.name}` were created outside `strategy.scope()` ({name}), but "
            f"{whose}, so the optimizer cannot place its state beside the model's weights on every "
            f"replica. {_SCOPE_FIX}"
        )
    if builders:
        return NotMirroredError(
            f"`optimizer.build()` ran outside `strategy.scope()`: the optimizer was created inside "
            f"the scope of a {name} and must create its variables there too"
            f"{'; the model is fine (its weights are mirrored)' if models else ''}. Fix: call "
            f"`optimizer.build(model.trainable_variables)` (or restore a checkpoint that builds it) "
            f"inside `with strategy.scope():`."
        )
    seen = "the model's weights are mirrored, so the model is fine" if models else "no model was found"
    return NotMirroredError(
        f"An object created inside the scope of a {name} (an optimizer, usually) created variables "
        f"outside that scope ({seen}). Candidates: the model was built outside `strategy.scope()` "
        f"while the optimizer or `compile()` was inside it; or `optimizer.build()`, "
        f"`apply_gradients()` or a checkpoint restore that creates optimizer slots ran after the "
        f"`with` block. Fix: build the model, create and build the optimizer, and restore "
        f"checkpoints inside `with strategy.scope():`."
    )


def _addn_shapes(match) -> tuple[list[int], list[int]] | None:
    """The two shapes AddN refused, when they differ in the first dimension only."""
    first, other = _shape(match.group("a")), _shape(match.group("b"))
    if not first or len(first) != len(other) or first[1:] != other[1:] or first[0] == other[0]:
        return None
    return first, other


def _reduce_axis_none(match, _message, evidence: _Evidence) -> MirrorGuardError | None:
    """A custom loop's `strategy.reduce(op, value, axis=None)` of per-row values.

    Needs: TensorFlow's own `Strategy.reduce` frame (eager) with `axis=None` and a
    per-replica value, and AddN shapes that differ in the first dimension only.
    """
    shapes = _addn_shapes(match)
    calls = [c for c in evidence.reduce_calls if c.axis is None]
    tf = _tf()
    if shapes is None or not calls or not isinstance(calls[-1].value, tf.distribute.DistributedValues):
        return None
    call = calls[-1]
    op = getattr(call.reduce_op, "value", call.reduce_op)
    first, other = shapes
    return LossReductionError(
        f"`strategy.reduce({op!r}, value, axis=None)` was given a per-replica value with one entry per "
        f"row (shapes {first} and {other} on two of the replicas): `axis=None` adds the replicas' tensors "
        f"element-wise, which fails as soon as a batch splits unevenly (a short last batch, which is "
        f"legal) and on even batches adds row i of one replica to row i of another. Fix: reduce over "
        f"the rows as well, `strategy.reduce({op!r}, value, axis=0)`, or reduce a per-replica scalar "
        f"such as `tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)` "
        f"with `axis=None`."
    )


def _traced_cross_replica_sum(match, _message, evidence: _Evidence) -> MirrorGuardError | None:
    """Inside a `tf.function`: an AddN over the replicas' values fails while tracing.

    Needs: AddN shapes that differ in the first dimension only, and a per-replica value
    in the failing frames whose replicas hold exactly those shapes. No TensorFlow frame
    says which call added them, so both that can are named.
    """
    first, other = _shape(match.group("a")), _shape(match.group("b"))
    if not first or len(first) != len(other) or first[1:] != other[1:] or first[0] == other[0]:
        return None
    tf = _tf()
    strategies = evidence.strategies()
    for value in evidence.objects:
        if not isinstance(value, tf.distribute.DistributedValues):
            continue
        for strategy in strategies:
            try:
                shapes = [t.shape.as_list() for t in strategy.experimental_local_results(value)]
            except Exception:  # noqa: BLE001 - a value of another strategy, or not tensors
                continue
            if first in shapes and other in shapes:
                return LossReductionError(
                    f"A per-replica value with one entry per row (shapes {first} and {other} on two of "
                    f"the replicas) was added element-wise across replicas, which fails as soon as a "
                    f"batch splits unevenly (a short last batch, which is legal). Candidates: "
                    f"`strategy.reduce(op, value, axis=None)` (reduce with `axis=0` to include the rows, "
                    f"or reduce a per-replica scalar such as `tf.nn.compute_average_loss(...)`), or a "
                    f"replica context's `all_reduce` of a per-row tensor (all-reduce a scalar)."
                )
    return None


def _first_batch(match, _message, evidence: _Evidence) -> MirrorGuardError | None:
    """Keras 3 `fit()`/`evaluate()` reduces the first batch across replicas before training.

    Needs: that `fit()`/`evaluate()` call of a Keras 3 model, a strategy with more than
    one replica, AddN shapes that differ in the first dimension only, and whether the
    input is made of batches (arrays, which Keras batches; a dataset whose elements all
    have rows).
    """
    shapes = _addn_shapes(match)
    call = evidence.training_call
    if shapes is None or call is None:
        return None
    replicas = _replicas(_model_strategy(call.receiver)) or 0
    inputs = int(match.group("n")) if match.group("n") else replicas
    if replicas < 2 or inputs != replicas:
        return None
    first, other = shapes
    source, x = _input_of(call)
    if source.kind == "dataset":
        batched = _batched(x, evidence.read(compat.dataset_batch_size, x, None))
    else:
        batched = True if source.kind != "other" else None
    if batched is False:
        dims = ", ".join(str(d) if d not in (None, -1) else ("?" if d is None else "scalar") for d in _leading_dims(x))
        return MirrorGuardError(
            f"The dataset given to `{call.name}()` is not batched: its elements are single examples "
            f"(first dimensions {dims}), so tf.distribute split one example's {first[0] + other[0]} "
            f"values across the {replicas} replicas (shapes {first} and {other}), and Keras fails when "
            f"it combines them. Fix: batch the dataset with the global batch size, "
            f"`dataset.batch(per_replica_batch * strategy.num_replicas_in_sync)`."
        )
    index = int(match.group("index"))
    split = infer_split(replicas, first[0], index, other[0])
    if split is not None:
        what = f"Keras received {rows_phrase(split)}"
        sizes = f" ({even_sizes(sum(split), replicas)} here)"
    else:  # the whole split cannot be read from the message: say what is known
        what = f"one replica received {first[0]} rows and another {other[0]}"
        sizes = ""
    if batched is None:
        # A fixed first dimension shared by every component: a batch of that many rows, or
        # one unbatched example of that many values. Say both.
        return MirrorGuardError(
            f"Keras could not combine the replicas' first batch in `{call.name}()`: tf.distribute "
            f"split it into shapes {first} and {other} over {replicas} replicas. Candidates: the global "
            f"batch of {first[0] + other[0]} rows does not split evenly (make it a multiple of "
            f"`strategy.num_replicas_in_sync`{sizes}); or the dataset is not batched and one example's "
            f"{first[0] + other[0]} values were split (call `dataset.batch(...)`)."
        )
    remainder = remainder_fix(source, Record(0, tuple(split or (first[0], other[0]))))
    error = UnevenBatchError(
        f"The global batch does not split evenly across the replicas: {what}, and Keras "
        f"fails when it combines the replicas' first batch. Fix: make the global batch "
        f"size a multiple of the replica count, e.g. `batch_size = per_replica_batch * "
        f"strategy.num_replicas_in_sync`{sizes}; if this is the data's short last batch "
        f"(shuffled to the front, say), {remainder}."
    )
    if split is not None:
        error.global_batch_size, error.num_replicas, error.split = sum(split), replicas, tuple(split)
    else:
        error.split = (first[0], other[0])
    return error


def _strategy_name(strategy) -> str:
    """The strategy as users write it (TensorFlow's class behind MultiWorkerMirroredStrategy is another)."""
    if _tf() is None:
        return type(strategy).__name__
    return compat.strategy_public_name(strategy)


def _multi_worker(strategy) -> bool:
    tf = _tf()
    return tf is not None and isinstance(
        strategy, (tf.distribute.MultiWorkerMirroredStrategy, tf.distribute.experimental.ParameterServerStrategy)
    )


def _keras3_cannot_fit(_match, _message, evidence: _Evidence) -> MirrorGuardError | None:
    """Keras 3 `fit()`/`evaluate()` under a multi-worker strategy (keras-team/keras#20585).

    Needs: the Keras 3 `fit()`/`evaluate()` call, and its model trained under a
    MultiWorkerMirroredStrategy or ParameterServerStrategy.
    """
    call = evidence.training_call
    strategy = _model_strategy(call.receiver) if call is not None else None
    if not _multi_worker(strategy):
        return None
    if compat.is_parameter_server_strategy(strategy):
        loop = (
            "`tf.distribute.coordinator.ClusterCoordinator(strategy)`, its `schedule()` of a "
            "`tf.function` step over `create_per_worker_dataset(...)`"
        )
        hands = "it iterates the dataset itself, where this strategy needs per-worker datasets"
    else:
        loop = "`strategy.run(step, args=(batch,))` over `strategy.experimental_distribute_dataset(dataset)`"
        hands = "it hands the per-replica batch to code that expects a tensor"
    return MirrorGuardError(
        f"Keras 3 cannot run `{call.name}()` under {_strategy_name(strategy)}: {hands} "
        f"(keras-team/keras#20585, open). Your "
        f"scope and batches are not the cause. Fix, either: use tf-keras (`pip install tf_keras` "
        f"and set `TF_USE_LEGACY_KERAS=1` before TensorFlow is imported), whose `fit()` works under "
        f"this strategy; or train with a custom loop ({loop})."
    )


def _collectives_too_late(_match, _message, evidence: _Evidence) -> MirrorGuardError | None:
    """TensorFlow ran before a MultiWorkerMirroredStrategy (or other collectives) was set up.

    Needs: the message (TensorFlow configures collective ops only before its runtime
    starts); a MultiWorkerMirroredStrategy being constructed in the frames names it.
    """
    tf = _tf()
    building = tf is not None and any(
        isinstance(v, tf.distribute.MultiWorkerMirroredStrategy) for v in evidence.objects
    )
    what = (
        "`MultiWorkerMirroredStrategy()` was created after TensorFlow had already started"
        if building
        else "Collective ops (a `MultiWorkerMirroredStrategy`, usually) were set up after TensorFlow had "
        "already started"
    )
    return MirrorGuardError(
        f"{what}: it configures the runtime for collective communication, which is only possible "
        f"before the first TensorFlow op runs. Something ran earlier: a tensor, a model or layer, a "
        f"dataset built from arrays, or a device query. Fix: set `TF_CONFIG` and create the strategy "
        f"first, right after `import tensorflow`, and build everything else afterwards."
    )


def _too_few_files(match, _message, _evidence) -> MirrorGuardError | None:
    """FILE auto-sharding over fewer input files than workers: the message says both numbers."""
    files, workers = int(match.group("files")), int(match.group("workers"))
    plural = "file" if files == 1 else "files"
    return MirrorGuardError(
        f"The dataset reads {files} {plural}, but auto-sharding by FILE gives each of the {workers} "
        f"workers whole files, so it needs at least {workers}. Fix: split the data into at least "
        f"{workers} files (many more balances the workers better); or shard by element: "
        f"`options = tf.data.Options(); options.experimental_distribute.auto_shard_policy = "
        f"tf.data.experimental.AutoShardPolicy.DATA; dataset = dataset.with_options(options)` "
        f"(every worker reads all files and keeps its share)."
    )


_RULES: tuple[_Rule, ...] = (
    # Keras 3: fit() of a model built outside the scope and compiled inside, or
    # `optimizer.build()` after the `with` block.
    _Rule(
        ("RuntimeError",),
        re.compile(r'Need to be inside "with strategy\.scope\(\)" for ' + _STRATEGY_REPR.pattern),
        "the models the frames hold and whether their weights are the strategy's; a running optimizer build()",
        _used_outside_scope,
    ),
    # Keras 3, optimizer or compile() outside the scope of a model built inside it.
    _Rule(
        ("RuntimeError",),
        re.compile(r"Mixing different tf\.distribute\.Strategy objects"),
        "the message itself: TensorFlow raises it for state created under two strategies",
        _fixed(
            NotMirroredError,
            "Part of the training state was created under a different strategy than "
            "the rest: typically the optimizer was created, or `compile()` was called, "
            "outside the `strategy.scope()` that the model was built in.",
        ),
    ),
    # Keras 3, a layer or backbone built outside the scope inside a model built inside it.
    _Rule(
        ("ValueError",),
        re.compile(
            r"`?colocate_vars_with`? must only be passed a variable created in this "
            r"tf\.distribute\.Strategy\.scope\(\)"
        ),
        "the message itself, which names the variable",
        _variables_outside(
            "a layer or backbone built, called or loaded before the scope, so the "
            "optimizer cannot place its state beside it on every replica."
        ),
    ),
    # tf-keras compile(): a layer, model or optimizer variable outside the scope.
    _Rule(
        ("ValueError",),
        re.compile(r"Variable \(.*\) was not created in the distribution\s+strategy scope of", re.S),
        "the message itself, which names the variable",
        _variables_outside(
            "the model, one of its layers (built, called or `adapt()`-ed earlier) or a "
            "backbone was built before entering the scope, so it would not be mirrored "
            "across replicas.",
            _SCOPE_FIX,
        ),
    ),
    # tf-keras compile(): a metric object created under another strategy.
    _Rule(
        ("ValueError",),
        re.compile(r"Metric \(.*\) passed to `model\.compile` was\s+created inside a different", re.S),
        "the message itself",
        _fixed(
            NotMirroredError,
            "A metric object passed to `compile()` was created outside the "
            "`strategy.scope()` that the model was built in.",
            "Fix: create metric objects inside `with strategy.scope():`, or pass them to "
            "`compile()` by name (e.g. `metrics=['accuracy']`).",
        ),
    ),
    # tf-keras compile(): an optimizer object created under another strategy.
    _Rule(
        ("ValueError",),
        re.compile(r"Optimizer \(.*\) passed to `model\.compile`\s+was created inside a different", re.S),
        "the message itself",
        _fixed(
            NotMirroredError,
            "The optimizer object passed to `compile()` was created outside the "
            "`strategy.scope()` that the model was built in.",
            "Fix: create the optimizer inside `with strategy.scope():`, or pass it to "
            "`compile()` by name (e.g. `optimizer='adam'`).",
        ),
    ),
    # tf-keras under TPUStrategy: a metric created outside the scope.
    _Rule(
        ("ValueError",),
        re.compile(r"the metric was not created in TPUStrategy scope"),
        "the message itself",
        _fixed(
            NotMirroredError,
            "A metric was created outside the TPUStrategy's `strategy.scope()`, so its "
            "variables live on the host instead of the TPU replicas.",
            "Fix: create metric objects inside `with strategy.scope():`, or pass them to "
            "`compile()` by name.",
        ),
    ),
    # tf-keras custom loop: a loss object with its default reduction in the replica function.
    _Rule(
        ("ValueError",),
        re.compile(
            r"Please use `?tf\.keras\.losses\.Reduction\.SUM`? or\s+`?tf\.keras\.losses\.Reduction\.NONE`? "
            r"for loss reduction when losses are used with `?tf\.distribute\.Strategy"
        ),
        "the message itself: tf-keras raises it only inside a replica function",
        _fixed(
            LossReductionError,
            "A Keras loss object with its default reduction is called inside a replica "
            "function (`strategy.run`): it would average over each replica's rows only, and "
            "the replicas' gradients are summed, so updates would be as many times too "
            "large as there are replicas.",
            "Fix: create the loss with `reduction=tf.keras.losses.Reduction.NONE` and "
            "average the per-example losses over the global batch with "
            "`tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)` "
            "(add `tf.nn.scale_regularization_loss(model.losses)` for regularisation).",
        ),
    ),
    # A custom loop reducing per-row values across replicas with axis=None.
    _Rule(
        ("InvalidArgumentError",),
        re.compile(
            r"Inputs to operation \S+ of type AddN must have the same size and shape\.\s+"
            r"Input 0: \[(?P<a>[\d,]*)\] != input (?P<index>\d+): \[(?P<b>[\d,]*)\]"
        ),
        "TensorFlow's Strategy.reduce frame with axis=None and a per-replica value; shapes differing in rows only",
        _reduce_axis_none,
    ),
    # Inside a tf.function: the same cross-replica sum of per-row values, at trace time.
    _Rule(
        ("ValueError",),
        re.compile(
            r"Shapes are \[(?P<a>[\d,]*)\] and \[(?P<b>[\d,]*)\]\.\s+From merging shape \d+ with other "
            r"shapes\. for '\{\{node [^}]*AddN[^}]*\}\} = AddN\[",
        ),
        "shapes differing in rows only, and a per-replica value in the frames holding exactly those shapes",
        _traced_cross_replica_sum,
    ),
    # Keras 3 fit(): the first batch is reduced across replicas before training.
    _Rule(
        ("InvalidArgumentError",),
        re.compile(
            r"(?:AddN_N_(?P<n>\d+)_device.*?)?"
            r"Inputs to operation \S+ of type AddN must have the same size and shape\.\s+"
            r"Input 0: \[(?P<a>[\d,]*)\] != input (?P<index>\d+): \[(?P<b>[\d,]*)\]",
            re.S,
        ),
        "the Keras 3 fit()/evaluate() call, its model's replicas, its input and whether that is batched",
        _first_batch,
    ),
    # Keras 3 fit()/evaluate() under MultiWorkerMirroredStrategy or ParameterServerStrategy.
    _Rule(
        ("ValueError",),
        re.compile(
            # MultiWorkerMirroredStrategy, then ParameterServerStrategy
            r"Attempt to convert a value \(PerReplica:.*\) with an unsupported type .*PerReplica"
            r"|To use this dataset, you need to pass this dataset to ClusterCoordinator\.create_per_worker_dataset",
            re.S,
        ),
        "the Keras 3 fit()/evaluate() call and its model's strategy, a multi-worker one",
        _keras3_cannot_fit,
    ),
    # A MultiWorkerMirroredStrategy created after TensorFlow started.
    _Rule(
        ("RuntimeError",),
        re.compile(r"Collective ops must be configured at program startup"),
        "the message itself; a MultiWorkerMirroredStrategy under construction in the frames",
        _collectives_too_late,
    ),
    # FILE auto-sharding with fewer files than workers.
    _Rule(
        ("InvalidArgumentError",),
        re.compile(
            r"Could not apply FILE based sharding: the dataset only has (?P<files>\d+) file\(s\), which "
            r"is not enough for the required (?P<workers>\d+) shards/workers"
        ),
        "the message itself, which gives the files and the workers",
        _too_few_files,
    ),
)


# Translation ------------------------------------------------------------------------


def _type_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


def _without_values(text: str) -> str:
    return _ARRAY.sub("", text).strip()


def _original(error: BaseException) -> str:
    return f"Original error: {type(error).__name__}: {_without_values(str(error))}"


def _shorten(error: BaseException) -> None:
    """Drops array values from the original's message, so a chained traceback stays short.

    tf-keras prints every weight of the variable it names as a numpy array (40 lines
    for a small layer) and Python prints the `__cause__` before the explanation.
    """
    if len(error.args) == 1 and isinstance(error.args[0], str):
        short = _without_values(error.args[0])
        if short != error.args[0]:
            error.args = (short,)


def translate(error: BaseException) -> MirrorGuardError | None:
    """Returns the mirrorguard error that explains `error`, or None if it is not a known case."""
    if isinstance(error, MirrorGuardError):
        return None
    names = _type_names(error)
    message = str(error)
    evidence = _Evidence(error)
    for rule in _RULES:
        if names.isdisjoint(rule.types):
            continue
        match = rule.pattern.search(message)
        if match is None:
            continue
        explained = rule.build(match, message, evidence)
        if explained is not None:
            explained.args = (f"{explained.args[0]}\n\n{_original(error)}",)
            return explained
    return None


class explain_errors(contextlib.ContextDecorator):  # noqa: N801 - reads as a function
    """Turns the cryptic errors of a mis-scoped tf.distribute program into plain ones.

    Inside the block (or the decorated function), the known failures of model,
    optimizer, layers or `compile()` outside `strategy.scope()` become a
    `mirrorguard.NotMirroredError` (naming the variables TensorFlow named),
    tf-keras' refusal of a default-reduction loss object in a replica function and a
    custom loop's `strategy.reduce(..., axis=None)` of per-example values a
    `mirrorguard.LossReductionError`, and Keras 3's failure on an unevenly split
    first batch, under a strategy with more than one replica, a
    `mirrorguard.UnevenBatchError`. Each is explained only when the failing program
    shows the cause (which objects were made where, whether the dataset is batched);
    when more than one cause fits, the message lists them. Each says the cause and the
    fix, then quotes the original message; the original exception is chained as
    `__cause__`. Any other exception passes through untouched.

    Wrap everything from building the model to training: tf-keras reports a model
    built outside the scope in `compile()`, Keras 3 in `fit()`.

    Example:

    ```python
    import mirrorguard

    with mirrorguard.explain_errors():
        with strategy.scope():
            model = build_model()
            model.compile(optimizer="adam", loss="mse")
        model.fit(dataset, epochs=3)

    @mirrorguard.explain_errors()
    def train():
        ...
    ```
    """

    def __enter__(self) -> explain_errors:
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        explained = translate(exc)
        if explained is None:
            return False  # re-raised by Python as it was, traceback included
        _shorten(exc)
        raise explained from exc
