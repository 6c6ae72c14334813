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
    KERAS3,
    is_default_strategy,
    optimizer_variables,
    tf_variable,
    variable_path,
)
from mirrorguard.runtime import compat

_SHOWN = 5


def _replicating(strategy) -> bool:
    return compat.replicates_variables(strategy)


def configured_devices() -> dict[str, int]:
    """Devices that would give more than one replica, by type, where there are several."""
    counts = {kind: len(tf.config.list_logical_devices(kind)) for kind in ("GPU", "TPU", "CPU")}
    return {kind: n for kind, n in counts.items() if n > 1}


public_name = compat.strategy_public_name


def strategy_name(strategy) -> str:
    if is_default_strategy(strategy):
        return "the default strategy (no `strategy.scope()`)"
    replicas = strategy.num_replicas_in_sync
    return f"{public_name(strategy)} ({replicas} replica{'s' if replicas != 1 else ''})"


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
    other = compat.strategy_of_variable(variable)
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


class NotBuilt(Exception):
    """A tf-keras model or layer whose weights do not exist yet (no `Input`, never called)."""


def _weights(layer) -> list:
    try:
        weights = list(layer.weights)
    except ValueError as error:  # tf-keras: "Weights for model 'x' have not yet been created"
        if getattr(layer, "built", True):
            raise
        raise NotBuilt(str(error)) from None
    if not weights and getattr(layer, "built", True) is False:  # Keras 3 lists none yet
        raise NotBuilt(f"{getattr(layer, 'name', layer)} is not built")
    return weights


def model_optimizers(model) -> list:
    """`model.optimizer`, then optimizers a subclass keeps as attributes (a GAN's `d_optimizer`)."""
    found = []
    for value in [getattr(model, "optimizer", None), *vars(model).values()]:
        if (
            value is not None
            and callable(getattr(value, "apply_gradients", None))
            and hasattr(value, "variables")
            and not any(value is f for f in found)
        ):
            found.append(value)
    return found


def model_variables(model, built_only: bool = True) -> list:
    """Model weights, then its optimizers' variables, each once.

    An unbuilt tf-keras model has no weights yet: none are listed, unless
    `built_only` is False, when `NotBuilt` says so.
    """
    try:
        weights = _weights(model)
    except NotBuilt:
        if not built_only:
            raise
        weights = []  # the trace-time check sees them
    seen: set[int] = set()
    result = []
    optimizers = model_optimizers(model)
    for variable in [*weights, *(v for o in optimizers for v in optimizer_variables(o))]:
        key = id(tf_variable(variable))
        if key not in seen:
            seen.add(key)
            result.append(variable)
    return result


def _layers(model) -> list:
    """The model and its layers, nested models' layers included (Keras' public `layers`, not a tf.Module walk)."""
    found, stack, seen = [], [model], set()
    while stack:
        layer = stack.pop()
        if id(layer) in seen:
            continue
        seen.add(id(layer))
        found.append(layer)
        stack.extend(getattr(layer, "layers", None) or ())
    return found


def layer_paths(model) -> dict[int, str]:
    """tf-keras: `layer/variable` for each weight whose own name lacks its layer's name.

    A layer built by hand outside a model (to load pretrained vectors, say) names its
    weights without a scope (`embeddings:0`); Keras 3 gives every variable its path, so
    nothing is computed there.
    """
    if KERAS3:
        return {}
    owners: dict[int, tuple[int, str]] = {}  # id(variable) -> (weights of the smallest owning layer, its name)
    named: dict[int, object] = {}
    for layer in _layers(model):
        try:
            weights = list(layer.weights)
        except ValueError:  # not built
            continue
        for variable in weights:
            key = id(tf_variable(variable))
            named[key] = variable
            if key not in owners or len(weights) < owners[key][0]:
                owners[key] = (len(weights), str(getattr(layer, "name", "")))
    paths = {}
    for key, variable in named.items():
        path = variable_path(variable)
        if owners[key][1] and "/" not in path:
            paths[key] = f"{owners[key][1]}/{path}"
    return paths


def unowned(variables, strategy, paths: dict[int, str] | None = None) -> list[str]:
    paths = paths or {}
    return [
        paths.get(id(tf_variable(v)), variable_path(v)) for v in variables if not owned(tf_variable(v), strategy)
    ]


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


def _outside(model, expected, where: str) -> str:
    """ "it and its optimizer were created outside ..." only when the optimizer really was.

    The optimizer is inside when its variables belong to `expected` (any strategy's
    distributed variables when None); an optimizer with no variables yet is not judged.
    """
    optimizers = model_optimizers(model)
    variables = [tf_variable(v) for o in optimizers for v in optimizer_variables(o)]

    def inside(variable) -> bool:
        if expected is None:
            return isinstance(variable, tf.distribute.DistributedValues)
        return owned(variable, expected)

    if optimizers and variables and not all(inside(v) for v in variables):
        return f"it and its optimizer were created outside {where}"
    if optimizers and variables:
        return f"it was built outside {where}, although its optimizer was created in it"
    return f"it was built outside {where}"


def wrong_strategy_message(trained, expected, model=None) -> str:
    if type(trained) is type(expected):
        trains = f"another {strategy_name(trained)} object than the one"
    else:
        trains = f"{strategy_name(trained)}, not under the {strategy_name(expected)}"
    outside = _outside(model, expected, "that `strategy.scope()`") if model is not None else (
        "it was built outside that `strategy.scope()`")
    return f"The model trains under {trains} passed as `strategy=`: {outside}. {_FIX}"


def single_replica_message(devices: dict[str, int], model=None) -> str:
    seen = " and ".join(f"{n} {kind} devices" for kind, n in devices.items())
    outside = _outside(model, None, "any `strategy.scope()`") if model is not None else (
        "it was built outside any `strategy.scope()`")
    return (
        f"The model trains under the default strategy, on a single replica, although "
        f"{seen} are configured: {outside}, so fit() silently uses one device. {_FIX}\n"
        f"If one device is intended, pass `strategy=tf.distribute.get_strategy()`."
    )


def consequence(strategy, count: int = 2) -> str:
    """What a variable outside the scope costs under `strategy`, by its variable policy."""
    they = "they" if count != 1 else "it"
    if _replicating(strategy):
        return f"so {they} {'are' if count != 1 else 'is'} not kept in sync across replicas"
    devices = ", ".join(f"`{d}`" for d in strategy.extended.worker_devices)
    parameter = getattr(strategy.extended, "parameter_devices", ())
    if parameter and tuple(parameter) != tuple(strategy.extended.worker_devices):
        where = f"keeps each variable on its parameter device ({', '.join(f'`{d}`' for d in parameter)})"
    else:
        where = f"places each variable on its device ({devices})"
    return (
        f"so {they} {'escape' if count != 1 else 'escapes'} what {public_name(strategy)} needs: it {where}, "
        f"and only variables created in its scope"
    )


def unowned_message(paths: list[str], total: int, strategy) -> str:
    return (
        f"{len(paths)} of {total} model and optimizer variables {'is' if len(paths) == 1 else 'are'} not "
        f"{'mirrored by' if _replicating(strategy) else 'owned by'} "
        f"{strategy_name(strategy)}: {_name_list(paths)}. They were created outside "
        f"`strategy.scope()`, {consequence(strategy, len(paths))}. {_FIX}"
    )
