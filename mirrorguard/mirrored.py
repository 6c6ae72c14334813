"""assert_mirrored: the runtime guard for custom training loops.

This module imports no TensorFlow at import time, so `from mirrorguard import
assert_mirrored` is free; the check imports it when it is first called (by then
the caller's objects have imported it anyway).
"""

from __future__ import annotations

from mirrorguard.errors import NotMirroredError

__all__ = ["assert_mirrored"]

_FIX = (
    "Fix: create them inside the scope, before the loop:\n"
    "\n"
    "    with strategy.scope():\n"
    "        model = build_model()\n"
    "        optimizer = keras.optimizers.Adam()\n"
    "        metric = keras.metrics.Mean()\n"
    "        step = tf.Variable(0)\n"
    "        checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, step=step)\n"
    "\n"
    "Layers and backbones count too: build, call or `adapt()` them inside the scope."
)
_ALL_SHOWN = 5  # when an object has none of its variables in the scope, it names itself


def assert_mirrored(strategy, *objects) -> None:
    """Asserts that every variable of `objects` is a distributed variable of `strategy`.

    The guard for custom training loops (`strategy.run`): call it after building
    the model, optimizer, metrics and checkpoint, before the first step, and as
    often as you like during training (it reads Python attributes only, no
    tensor values, so it adds no device work). Under MirroredStrategy,
    MultiWorkerMirroredStrategy and TPUStrategy every variable must be a
    `MirroredVariable` or `SyncOnReadVariable` (metrics, tf-keras BatchNorm
    statistics) of this very strategy object, with one copy per local replica;
    under OneDeviceStrategy and CentralStorageStrategy it must have been created
    in the strategy's scope.

    A variable created outside the scope trains silently with one copy that
    every replica updates: a `tf.Variable` step counter made outside the scope
    and `assign_add(1)`-ed in the replica function counts 8 after 4 steps on 2
    replicas.

    Example:

    ```python
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input((20,)), keras.layers.Dense(1)])
        optimizer = keras.optimizers.SGD()
        checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    mirrorguard.assert_mirrored(strategy, model, optimizer, checkpoint)
    ```

    Args:
        strategy: the `tf.distribute.Strategy` the loop runs under.
        *objects: Keras models (their weights and their optimizer's state),
            layers, optimizers and metrics, `tf.Variable`s and Keras variables,
            `tf.train.Checkpoint`s and other trackables (`tf.Module`), or lists
            and dicts of them.

    Raises:
        mirrorguard.NotMirroredError: some variables are not distributed
            variables of `strategy`; the message names each one (or the object
            that holds only such variables) with the reason, and
            `error.variables` lists every path.
        ValueError: `strategy` is not a `tf.distribute.Strategy`, or no object
            was given.
        TypeError: an object holds nothing TensorFlow could track.
    """
    if not (hasattr(strategy, "extended") and hasattr(strategy, "scope")):
        raise ValueError(
            "Invalid value for argument `strategy`. Expected a `tf.distribute.Strategy`. "
            f"Received: strategy={strategy!r}"
        )
    if not objects:
        raise ValueError(
            "assert_mirrored() needs the objects to check: pass the model, optimizer, metrics "
            "or checkpoint after the strategy, e.g. `assert_mirrored(strategy, model, optimizer)`."
        )
    from mirrorguard.callbacks import _objects, _variables
    from mirrorguard.callbacks._keras import tf_variable

    held = []
    for item in objects:
        held.extend(_objects.variables_of(item))
    bad: dict[str, list[tuple[str, str]]] = {}
    totals: dict[str, int] = {}
    seen: set[int] = set()
    for entry in held:
        key = id(tf_variable(entry.variable))
        if key in seen:  # passed twice, e.g. a model and its checkpoint
            continue
        seen.add(key)
        totals[entry.owner] = totals.get(entry.owner, 0) + 1
        reason = _variables.why_not_owned(tf_variable(entry.variable), strategy)
        if reason is not None:
            bad.setdefault(entry.owner, []).append((entry.path, reason))
    if not bad:
        return
    error = NotMirroredError(_message(bad, totals, strategy))
    error.variables = tuple(path for problems in bad.values() for path, _ in problems)
    raise error


def _message(bad: dict[str, list[tuple[str, str]]], totals: dict[str, int], strategy) -> str:
    from mirrorguard.callbacks._variables import strategy_name

    count = sum(len(problems) for problems in bad.values())
    lines = [
        f"{count} variable{'s are' if count != 1 else ' is'} not distributed by "
        f"{strategy_name(strategy)}, so {'they are' if count != 1 else 'it is'} not kept in "
        f"sync across replicas:"
    ]
    for owner, problems in bad.items():
        reasons = {reason for _, reason in problems}
        if len(problems) == totals[owner] and len(problems) > 1 and len(reasons) == 1:
            # The whole object was made outside the scope: naming it says it all.
            names = ", ".join(f"`{path}`" for path, _ in problems[:_ALL_SHOWN])
            more = len(problems) - _ALL_SHOWN
            names += f" and {more} more (`error.variables` lists them all)" if more > 0 else ""
            lines.append(f"- {owner}: all {len(problems)} of its variables ({names}) were {reasons.pop()}")
            continue
        for path, reason in problems:
            if owner.endswith(f"`{path}`"):  # the variable was passed itself
                lines.append(f"- {owner} was {reason}")
            else:
                lines.append(f"- `{path}` of {owner} was {reason}")
    lines.append(_FIX)
    return "\n".join(lines)
