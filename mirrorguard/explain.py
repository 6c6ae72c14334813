"""Plain-language explanations for the cryptic errors of a mis-scoped tf.distribute program.

`explain_errors()` recognises exceptions by type name and message, so this module
never imports TensorFlow or Keras: it can wrap any code, including the import of
a training script.

An error is translated only when it is one of the known failures *and* a
distribution strategy is in play: the scope and loss-reduction messages name
the strategy themselves (TensorFlow raises them only under one), while an AddN
shape mismatch, which any `tf.add_n` can raise, counts as an uneven first batch
only when a strategy with more than one replica is found among the objects of
the failing frames (`fit()`'s model, a strategy variable). The translation keeps
the original message, minus array values, and chains the original exception.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Callable

from mirrorguard.callbacks._split import Record, Source, even_sizes, infer_split, remainder_fix, rows_phrase
from mirrorguard.errors import LossReductionError, MirrorGuardError, NotMirroredError, UnevenBatchError

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


@dataclass(frozen=True)
class _Rule:
    """One known failure: which exception types and message it applies to.

    `build(match, message)` returns the explanation, or None when the match turns
    out not to be this failure; `needs_replicas` asks for evidence of a strategy
    with more than one replica (for messages that do not imply a strategy).
    """

    types: tuple[str, ...]
    pattern: re.Pattern[str]
    build: Callable[..., MirrorGuardError | None]
    needs_replicas: bool = False
    needs_input: bool = False  # build() also takes what fit() was given


def _fixed(error_class, cause: str, fix: str = _SCOPE_FIX):
    return lambda _match, _message: error_class(f"{cause} {fix}")


def _variables_outside(what: str, fix: str = _LAYER_FIX):
    """A failure that names the variables made outside the scope, when TensorFlow printed them."""

    def build(_match, message):
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


def _uneven_first_batch(match: re.Match[str], _message: str, source: Source) -> MirrorGuardError | None:
    first = [int(d) for d in match.group("a").split(",") if d]
    other = [int(d) for d in match.group("b").split(",") if d]
    # AddN also fails for unrelated shape bugs; only a mismatch in the batch
    # dimension alone is the signature of an uneven split.
    if not first or len(first) != len(other) or first[1:] != other[1:] or first[0] == other[0]:
        return None
    replicas = int(match.group("n")) if match.group("n") else None
    split = infer_split(replicas, first[0], int(match.group("index")), other[0]) if replicas else None
    if split is not None:
        what = f"Keras received {rows_phrase(split)}"
        sizes = f" ({even_sizes(sum(split), replicas)} here)"
    else:  # the replica count is not in the message: say what is known
        what = f"one replica received {first[0]} rows and another {other[0]}"
        sizes = ""
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


_RULES: tuple[_Rule, ...] = (
    # Keras 3, model built outside the scope and compiled inside it.
    _Rule(
        ("RuntimeError",),
        re.compile(r'Need to be inside "with strategy\.scope\(\)" for'),
        _fixed(
            NotMirroredError,
            "The model's variables were created outside `strategy.scope()` but its "
            "optimizer inside it, so the optimizer cannot mirror them across replicas.",
        ),
    ),
    # Keras 3, optimizer or compile() outside the scope of a model built inside it.
    _Rule(
        ("RuntimeError",),
        re.compile(r"Mixing different tf\.distribute\.Strategy objects"),
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
        _variables_outside(
            "a layer or backbone built, called or loaded before the scope, so the "
            "optimizer cannot place its state beside it on every replica."
        ),
    ),
    # tf-keras compile(): a layer, model or optimizer variable outside the scope.
    _Rule(
        ("ValueError",),
        re.compile(r"Variable \(.*\) was not created in the distribution\s+strategy scope of", re.S),
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
    # Keras 3 fit(): the first batch is reduced across replicas before training.
    _Rule(
        ("InvalidArgumentError",),
        re.compile(
            r"(?:AddN_N_(?P<n>\d+)_device.*?)?"
            r"Inputs to operation \S+ of type AddN must have the same size and shape\.\s+"
            r"Input 0: \[(?P<a>[\d,]*)\] != input (?P<index>\d+): \[(?P<b>[\d,]*)\]",
            re.S,
        ),
        _uneven_first_batch,
        needs_replicas=True,
        needs_input=True,
    ),
)


def _type_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


def _replicas(value) -> int | None:
    """Replicas in sync of a strategy, or of the strategy a Keras model trains under."""
    classes = type(value).__mro__
    try:
        if any(c.__name__ == "StrategyBase" and c.__module__.startswith("tensorflow.") for c in classes):
            return int(value.num_replicas_in_sync)
        if any(c.__name__ == "Model" for c in classes) and hasattr(value, "distribute_strategy"):
            return _replicas(value.distribute_strategy)
    except Exception:  # noqa: BLE001 - a half-built object: no evidence either way
        return None
    return None


def _candidates(frame):
    for value in list(frame.f_locals.values()):
        yield value
        owner = getattr(value, "__self__", None)  # a bound method such as `model.fit`
        if owner is not None:
            yield owner
        if isinstance(value, (tuple, list)):
            yield from value[:8]
        elif isinstance(value, dict) and len(value) < 64:
            yield from list(value.values())


def replicas_in_play(traceback) -> int:
    """The most replicas of any strategy or model held by the failing frames (0: none found).

    TensorFlow and Keras cut their own frames from tracebacks, so what is left is
    the caller's frames and Keras' error handler, which holds the bound `fit`.
    """
    most = 0
    while traceback is not None:
        for value in _candidates(traceback.tb_frame):
            replicas = _replicas(value)
            if replicas:
                most = max(most, replicas)
        traceback = traceback.tb_next
    return most


def fit_input(traceback) -> Source:
    """What the failing `fit()` was given, from Keras' error handler frame (by type name only)."""
    while traceback is not None:
        local = traceback.tb_frame.f_locals
        function = local.get("fn")
        if getattr(function, "__name__", "") == "fit":
            args, kwargs = tuple(local.get("args") or ()), local.get("kwargs") or {}
            if args and getattr(function, "__self__", None) is None:
                args = args[1:]  # the unbound method: args[0] is the model
            x = args[0] if args else kwargs.get("x")
            names = {cls.__name__ for cls in type(x).__mro__}
            if "DatasetV2" in names:
                return Source("dataset")
            if names & {"PyDataset", "Sequence"}:
                return Source("pydataset", "one")
            if "generator" in names:
                return Source("generator")
            if "ndarray" in names or "EagerTensor" in names:
                return Source("arrays", rows=len(x))
            return Source()
        traceback = traceback.tb_next
    return Source()


def _original(error: BaseException) -> str:
    text = _ARRAY.sub("", str(error)).strip()
    return f"Original error: {type(error).__name__}: {text}"


def translate(error: BaseException) -> MirrorGuardError | None:
    """Returns the mirrorguard error that explains `error`, or None if it is not a known case."""
    if isinstance(error, MirrorGuardError):
        return None
    names = _type_names(error)
    message = str(error)
    for rule in _RULES:
        if names.isdisjoint(rule.types):
            continue
        match = rule.pattern.search(message)
        if match is None:
            continue
        if rule.needs_replicas and replicas_in_play(error.__traceback__) < 2:
            continue
        if rule.needs_input:
            explained = rule.build(match, message, fit_input(error.__traceback__))
        else:
            explained = rule.build(match, message)
        if explained is not None:
            explained.args = (f"{explained.args[0]}\n\n{_original(error)}",)
            return explained
    return None


class explain_errors(contextlib.ContextDecorator):  # noqa: N801 - reads as a function
    """Turns the cryptic errors of a mis-scoped tf.distribute program into plain ones.

    Inside the block (or the decorated function), the known failures of model,
    optimizer, layers or `compile()` outside `strategy.scope()` become a
    `mirrorguard.NotMirroredError` (naming the variables TensorFlow named),
    tf-keras' refusal of a default-reduction loss object in a replica function a
    `mirrorguard.LossReductionError`, and Keras 3's failure on an unevenly split
    first batch, under a strategy with more than one replica, a
    `mirrorguard.UnevenBatchError`. Each says the cause and the fix, then quotes
    the original message; the original exception is chained as `__cause__`. Any
    other exception passes through untouched.

    Example:

    ```python
    import mirrorguard

    with mirrorguard.explain_errors():
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
        raise explained from exc
