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

    A checkpoint's `save_counter` (made by its first `save()`, wherever that
    ran) is bookkeeping, not training state, and is not checked; a model not
    built yet has nothing to check, which a warning says. Under Keras 3 an
    optimizer made outside the scope is reported by its `iterations`, which
    every replica increments. Under ParameterServerStrategy nothing applies:
    a warning says so.

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
    import warnings

    from mirrorguard.callbacks import _objects, _variables
    from mirrorguard.callbacks._keras import KERAS3, tf_variable
    from mirrorguard.runtime import compat

    if compat.is_parameter_server_strategy(strategy):
        warnings.warn(_PSS, UserWarning, stacklevel=2)
        return
    held = []
    unbuilt: list[str] = []
    for item in objects:
        held.extend(_objects.variables_of(item, unbuilt=unbuilt))
    if unbuilt:
        # Nothing to check yet, which is no mistake: Keras builds them at the first call.
        one = len(unbuilt) == 1
        warnings.warn(
            f"assert_mirrored: {', '.join(unbuilt)} {'is' if one else 'are'} not built yet, so "
            f"{'it has' if one else 'they have'} no variables to check. Build {'it' if one else 'them'} "
            f"inside `strategy.scope()` (an `Input`, or `model.build(input_shape)`) before calling "
            f"assert_mirrored, or call it again after the first step.",
            UserWarning,
            stacklevel=2,
        )
    bad: dict[str, list[tuple[str, str]]] = {}
    counters: list[str] = []
    totals: dict[str, int] = {}
    seen: set[int] = set()
    for entry in held:
        key = id(tf_variable(entry.variable))
        if key in seen:  # passed twice, e.g. a model and its checkpoint
            continue
        seen.add(key)
        if entry.role == "iterations" and not KERAS3:
            # tf-keras optimizers count their steps once per step under any strategy, wherever
            # the counter was made (measured: 2 after 2 steps on 2 replicas): not a mistake.
            continue
        totals[entry.owner] = totals.get(entry.owner, 0) + 1
        reason = _variables.why_not_owned(tf_variable(entry.variable), strategy)
        if reason is not None:
            bad.setdefault(entry.owner, []).append((entry.path, reason))
            if entry.role == "iterations" and strategy.num_replicas_in_sync > 1 and _variables._replicating(strategy):
                counters.append(entry.owner)
    if not bad:
        return
    error = NotMirroredError(_message(bad, totals, strategy, counters))
    error.variables = tuple(path for problems in bad.values() for path, _ in problems)
    raise error


def _message(bad: dict[str, list[tuple[str, str]]], totals: dict[str, int], strategy, counters=()) -> str:
    from mirrorguard.callbacks._variables import _replicating, consequence, strategy_name

    count = sum(len(problems) for problems in bad.values())
    verb = "are" if count != 1 else "is"
    if _replicating(strategy):
        they = "they are" if count != 1 else "it is"
        lines = [
            f"{count} variable{'s' if count != 1 else ''} {verb} not distributed by {strategy_name(strategy)}, "
            f"so {they} not kept in sync across replicas:"
        ]
    else:
        # One copy of each variable: what matters is that the strategy placed it.
        lines = [
            f"{count} variable{'s were' if count != 1 else ' was'} not created in the scope of "
            f"{strategy_name(strategy)}, {consequence(strategy, count)}:"
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
    for owner in counters:
        lines.append(
            f"{owner[0].upper()}{owner[1:]} was created outside the scope: its step counter `iterations` is a "
            f"plain variable that every replica increments, so it counts "
            f"{strategy.num_replicas_in_sync} per step and a learning-rate schedule runs "
            f"{strategy.num_replicas_in_sync} times too fast."
        )
    lines.append(_FIX)
    return "\n".join(lines)


_PSS = (
    "assert_mirrored does not apply under ParameterServerStrategy: its variables live on the "
    "parameter servers (sharded or not), not one copy per replica, so there is nothing for it to "
    "compare; nothing was checked."
)
