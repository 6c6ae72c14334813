"""Plain-language explanations for the cryptic errors of a mis-scoped tf.distribute program.

`explain_errors()` recognises exceptions by type name and message, so this module
never imports TensorFlow or Keras: it can wrap any code, including the import of
a training script.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Callable

from mirrorguard.errors import MirrorGuardError, NotMirroredError, UnevenBatchError

__all__ = ["explain_errors"]

_SCOPE_FIX = (
    "Fix: build the model, create the optimizer and metrics, and call `compile()` "
    "all inside `with strategy.scope():`; `fit()`, `evaluate()`, `predict()` and "
    "`save()` may stay outside."
)


@dataclass(frozen=True)
class _Rule:
    """One known failure: which exception types and message it applies to."""

    types: tuple[str, ...]
    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], MirrorGuardError]


def _not_mirrored(cause: str, fix: str = _SCOPE_FIX) -> Callable[[re.Match[str]], MirrorGuardError]:
    return lambda _match: NotMirroredError(f"{cause} {fix}")


def _uneven_first_batch(match: re.Match[str]) -> MirrorGuardError | None:
    first = [int(d) for d in match.group("a").split(",") if d]
    other = [int(d) for d in match.group("b").split(",") if d]
    # AddN also fails for unrelated shape bugs; only a mismatch in the batch
    # dimension alone is the signature of an uneven split.
    if not first or len(first) != len(other) or first[1:] != other[1:] or first[0] == other[0]:
        return None
    error = UnevenBatchError(
        f"The global batch does not split evenly across the replicas: one replica "
        f"received {first[0]} rows and another {other[0]}, and Keras fails when it "
        f"combines the replicas' first batch. Fix: make the global batch size a "
        f"multiple of the replica count, e.g. `batch_size = per_replica_batch * "
        f"strategy.num_replicas_in_sync`, and batch datasets with "
        f"`drop_remainder=True` if the last batch may be partial."
    )
    error.split = (first[0], other[0])
    return error


_RULES: tuple[_Rule, ...] = (
    # Keras 3, model built outside the scope and compiled inside it.
    _Rule(
        ("RuntimeError",),
        re.compile(r'Need to be inside "with strategy\.scope\(\)" for'),
        _not_mirrored(
            "The model's variables were created outside `strategy.scope()` but its "
            "optimizer inside it, so the optimizer cannot mirror them across replicas."
        ),
    ),
    # Keras 3, optimizer or compile() outside the scope of a model built inside it.
    _Rule(
        ("RuntimeError",),
        re.compile(r"Mixing different tf\.distribute\.Strategy objects"),
        _not_mirrored(
            "Part of the training state was created under a different strategy than "
            "the rest: typically the optimizer was created, or `compile()` was called, "
            "outside the `strategy.scope()` that the model was built in."
        ),
    ),
    # Keras 3, a backbone built outside the scope inside a model built inside it.
    _Rule(
        ("ValueError",),
        re.compile(
            r"`?colocate_vars_with`? must only be passed a variable created in this "
            r"tf\.distribute\.Strategy\.scope\(\)"
        ),
        _not_mirrored(
            "Some model variables (often those of a pretrained backbone or a layer "
            "built earlier) were created outside `strategy.scope()`, so the optimizer "
            "cannot place its state beside them on every replica.",
            "Fix: build or load every part of the model, backbones included, inside "
            "`with strategy.scope():` and call `compile()` there too.",
        ),
    ),
    # tf-keras compile(): a layer, model or optimizer variable outside the scope.
    _Rule(
        ("ValueError",),
        re.compile(r"Variable \(.*\) was not created in the distribution\s+strategy scope of", re.S),
        _not_mirrored(
            "Some model variables were created outside `strategy.scope()` (the model, "
            "one of its layers, or a backbone was built before entering the scope), so "
            "they would not be mirrored across replicas."
        ),
    ),
    # tf-keras compile(): a metric object created under another strategy.
    _Rule(
        ("ValueError",),
        re.compile(r"Metric \(.*\) passed to `model\.compile` was\s+created inside a different", re.S),
        _not_mirrored(
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
        _not_mirrored(
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
        _not_mirrored(
            "A metric was created outside the TPUStrategy's `strategy.scope()`, so its "
            "variables live on the host instead of the TPU replicas.",
            "Fix: create metric objects inside `with strategy.scope():`, or pass them to "
            "`compile()` by name.",
        ),
    ),
    # Keras 3 fit(): the first batch is reduced across replicas before training.
    _Rule(
        ("InvalidArgumentError",),
        re.compile(
            r"Inputs to operation \S+ of type AddN must have the same size and shape\.\s+"
            r"Input 0: \[(?P<a>[\d,]*)\] != input \d+: \[(?P<b>[\d,]*)\]"
        ),
        _uneven_first_batch,
    ),
)


def _type_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


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
        explained = rule.build(match)
        if explained is not None:
            return explained
    return None


class explain_errors(contextlib.ContextDecorator):  # noqa: N801 - reads as a function
    """Turns the cryptic errors of a mis-scoped tf.distribute program into plain ones.

    Inside the block (or the decorated function), the known failures of model,
    optimizer or `compile()` outside `strategy.scope()` become a
    `mirrorguard.NotMirroredError`, and Keras 3's failure on an unevenly split
    first batch becomes a `mirrorguard.UnevenBatchError`. Each says the cause in
    one sentence and the fix in another; the original exception is kept as
    `__cause__`. Any other exception passes through untouched.

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
