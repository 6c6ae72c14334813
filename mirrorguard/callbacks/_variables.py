"""Which variables a strategy owns, by each strategy's variable policy.

* Replicating strategies (MirroredStrategy, MultiWorkerMirroredStrategy,
  TPUStrategy) keep one copy of every variable per local replica: each variable
  must be a distributed variable (MirroredVariable, or SyncOnReadVariable for
  ON_READ state such as tf-keras' BatchNorm statistics) of that strategy, with one
  component per local replica.
* Other strategies (OneDeviceStrategy, CentralStorageStrategy, parameter servers)
  keep a single copy; each variable must only have been created in the strategy's
  scope, which TF records on the variable itself.
* The default strategy (no scope at all) trains on one replica; that is a silent
  mistake when the process sees more than one accelerator or logical CPU device.
"""

from __future__ import annotations

import tensorflow as tf

from mirrorguard.callbacks._keras import (
    is_default_strategy,
    optimizer_variables,
    tf_variable,
    variable_path,
)

_SHOWN = 5


def _replicating(strategy) -> bool:
    from tensorflow.python.distribute import mirrored_strategy

    try:
        from tensorflow.python.distribute import tpu_strategy

        tpu_extended = (tpu_strategy.TPUExtended,)
    except ImportError:  # pragma: no cover - TPU support compiled out
        tpu_extended = ()
    # MultiWorkerMirroredStrategy's extended class derives from MirroredExtended.
    return isinstance(strategy.extended, (mirrored_strategy.MirroredExtended, *tpu_extended))


def configured_devices() -> dict[str, int]:
    """Devices that would give more than one replica, by type, where there are several."""
    counts = {kind: len(tf.config.list_logical_devices(kind)) for kind in ("GPU", "TPU", "CPU")}
    return {kind: n for kind, n in counts.items() if n > 1}


def strategy_name(strategy) -> str:
    if is_default_strategy(strategy):
        return "the default strategy (no `strategy.scope()`)"
    return f"{type(strategy).__name__} ({strategy.num_replicas_in_sync} replicas)"


def owned(variable, strategy) -> bool:
    """Whether `variable` (a TF variable) belongs to `strategy` by its policy."""
    try:
        in_scope = strategy.extended.variable_created_in_scope(variable)
    except AttributeError:  # not a TF variable at all
        return False
    if not in_scope:
        return False
    if _replicating(strategy):
        if not isinstance(variable, tf.distribute.DistributedValues):
            return False
        return len(variable.values) == len(strategy.extended.worker_devices)
    return True


def why_not_owned(variable, strategy) -> str | None:
    """Why `variable` (a TF variable) does not belong to `strategy`, or None when it does.

    The reason reads after "was" or "were": "created outside any `strategy.scope()`".
    """
    if owned(variable, strategy):
        return None
    other = getattr(variable, "_distribute_strategy", None)
    if other is not None and other is not strategy:
        if type(other) is type(strategy):
            return f"created in the scope of another {strategy_name(other)} object"
        return f"created in the scope of {strategy_name(other)}"
    if not isinstance(variable, tf.distribute.DistributedValues):
        return "created outside any `strategy.scope()`"
    return (
        f"distributed over {len(variable.values)} devices, not one per replica "
        f"({len(strategy.extended.worker_devices)})"
    )


def model_variables(model) -> list:
    """Model weights, then optimizer variables, each once."""
    try:
        weights = list(model.weights)
    except ValueError:  # tf-keras: not built yet; the trace-time check sees them
        weights = []
    seen: set[int] = set()
    result = []
    for variable in [*weights, *optimizer_variables(getattr(model, "optimizer", None))]:
        key = id(tf_variable(variable))
        if key not in seen:
            seen.add(key)
            result.append(variable)
    return result


def unowned(variables, strategy) -> list[str]:
    return [variable_path(v) for v in variables if not owned(tf_variable(v), strategy)]


def _name_list(paths: list[str]) -> str:
    shown = ", ".join(f"`{p}`" for p in paths[:_SHOWN])
    more = len(paths) - _SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


_FIX = (
    "Fix: build the model, create the optimizer and call `compile()` inside the scope:\n"
    "\n"
    "    with strategy.scope():\n"
    "        model = build_model()\n"
    "        model.compile(optimizer=..., loss=...)\n"
    "    model.fit(...)"
)


def wrong_strategy_message(trained, expected) -> str:
    if type(trained) is type(expected):
        trains = f"another {strategy_name(trained)} object than the one"
    else:
        trains = f"{strategy_name(trained)}, not under the {strategy_name(expected)}"
    return (
        f"The model trains under {trains} passed as `strategy=`: it and its optimizer "
        f"were created outside that `strategy.scope()`. {_FIX}"
    )


def single_replica_message(devices: dict[str, int]) -> str:
    seen = " and ".join(f"{n} {kind} devices" for kind, n in devices.items())
    return (
        f"The model trains under the default strategy, on a single replica, although "
        f"{seen} are configured: it and its optimizer were created outside any "
        f"`strategy.scope()`, so fit() silently uses one device. {_FIX}\n"
        f"If one device is intended, pass `strategy=tf.distribute.get_strategy()`."
    )


def unowned_message(paths: list[str], total: int, strategy) -> str:
    return (
        f"{len(paths)} of {total} model and optimizer variables are not "
        f"{'mirrored by' if _replicating(strategy) else 'owned by'} "
        f"{strategy_name(strategy)}: {_name_list(paths)}. They were created outside "
        f"`strategy.scope()`, so they are not kept in sync across replicas. {_FIX}"
    )
