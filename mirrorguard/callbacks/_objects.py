"""The variables that models, layers, optimizers, metrics and checkpoints hold, in both Keras flavours.

`assert_mirrored` accepts any of these, or lists and dicts of them. Keras objects
are asked for their own variables (weights, optimizer state, metric state);
everything else that TensorFlow can checkpoint (`tf.train.Checkpoint`, `tf.Module`,
`AutoTrackable` containers) is walked through its trackable children, which is
how a checkpoint itself finds what to save.
"""

from __future__ import annotations

from dataclasses import dataclass

import tensorflow as tf

from mirrorguard.callbacks._keras import optimizer_variables, tf_variable, variable_path
from mirrorguard.callbacks._variables import NotBuilt, _weights, layer_paths, model_variables
from mirrorguard.runtime import compat


@dataclass(frozen=True)
class Held:
    """One variable and what the user passed that holds it."""

    owner: str  # e.g. "model `sequential`", "checkpoint attribute `step`"
    path: str  # the variable's own path or name
    variable: object  # as the object exposes it (a Keras 3 variable wraps the TF one)
    role: str = ""  # "iterations" for an optimizer's step counter


def is_variable(value) -> bool:
    """A TF variable, or a Keras 3 variable wrapping one."""
    if isinstance(value, tf.Variable):
        return True
    # Keras 3 variables are not tf.Variables; compat finds the TF variable inside.
    return compat.tf_variable_of(value) is not None


def _is_optimizer(value) -> bool:
    return callable(getattr(value, "apply_gradients", None)) and hasattr(value, "variables")


def _is_keras_layer(value) -> bool:
    # Both flavours' Layer (and so Model and, in tf-keras, Metric) have these. The class is
    # asked: an unbuilt tf-keras model raises ValueError for `weights` itself.
    return hasattr(type(value), "weights") and callable(getattr(value, "add_weight", None))


def _is_keras3_metric(value) -> bool:
    # Keras 3 metrics are neither layers nor trackable: ask for their variables.
    return callable(getattr(value, "update_state", None)) and hasattr(value, "variables")


def describe(value) -> str:
    name = getattr(value, "name", None)
    if _is_optimizer(value):
        return f"optimizer `{type(value).__name__}`"
    if _is_keras3_metric(value) and not _is_keras_layer(value):
        return f"metric `{name}`"
    if _is_keras_layer(value):
        kind = "model" if any(c.__name__ == "Model" for c in type(value).__mro__) else "layer"
        kind = "metric" if callable(getattr(value, "update_state", None)) else kind
        return f"{kind} `{name}`"
    if is_variable(value):
        return f"variable `{variable_path(value)}`"
    if isinstance(value, tf.train.Checkpoint):
        return "checkpoint"
    return f"`{type(value).__name__}`"


def _keras_variables(value) -> list | None:
    """The variables of a Keras object, or None when `value` is not one."""
    if _is_optimizer(value):
        return optimizer_variables(value)
    if _is_keras_layer(value):
        if any(c.__name__ == "Model" for c in type(value).__mro__):
            return model_variables(value, built_only=False)  # weights, then the optimizers' state
        variables = _weights(value)
        if callable(getattr(value, "update_state", None)):
            variables += [v for v in getattr(value, "variables", []) if not any(v is w for w in variables)]
        return variables
    if _is_keras3_metric(value):
        return list(value.variables)
    return None


def _trackable_children(value) -> dict | None:
    children = compat.trackable_children(value)
    if children is not None and isinstance(value, tf.train.Checkpoint):
        # Created by the first save(), wherever that ran: host-side numbering of
        # checkpoint files, not training state (TensorFlow's tutorials save outside the scope).
        counter = compat.checkpoint_save_counter(value)
        children = {name: child for name, child in children.items() if counter is None or child is not counter}
    return children


def _iterations_of(value) -> int | None:
    counter = getattr(value, "iterations", None) if _is_optimizer(value) else None
    return id(tf_variable(counter)) if counter is not None else None


def variables_of(value, owner: str | None = None, unbuilt: list | None = None) -> list[Held]:
    """Every variable `value` holds, each once, labelled with what holds it.

    Models and layers that are not built yet (tf-keras without an `Input`) hold
    nothing to check: they are appended to `unbuilt` (by description) when given.

    Raises:
        TypeError: `value` holds no variables TensorFlow or Keras could track.
    """
    found: list[Held] = []
    seen: set[int] = set()
    counters: set[int] = set()  # optimizers' step counters
    paths: dict[int, str] = {}

    def add(variable, holder: str, label: str | None = None) -> None:
        key = id(tf_variable(variable))
        if key not in seen:
            seen.add(key)
            path = label or paths.get(key) or variable_path(variable)
            found.append(Held(holder, path, variable, "iterations" if key in counters else ""))

    def visit(item, holder: str | None, path: str, visited: set[int]) -> None:
        if id(item) in visited:
            return
        visited.add(id(item))
        if is_variable(item):
            add(item, holder or describe(item), variable_path(item) if not path else f"{path} ({variable_path(item)})")
            return
        try:
            keras_variables = _keras_variables(item)
        except NotBuilt:
            if unbuilt is None:
                raise
            unbuilt.append(describe(item))
            return
        if keras_variables is not None:
            if _is_keras_layer(item):
                paths.update(layer_paths(item))
            for optimizer in [item, *(vars(item).values() if _is_keras_layer(item) else ())]:
                counter = _iterations_of(optimizer)
                if counter is not None:
                    counters.add(counter)
            holder = describe(item) if not path else f"{describe(item)} at checkpoint path `{path}`"
            for variable in keras_variables:
                add(variable, holder)
            return
        if isinstance(item, (list, tuple)) and not path:
            for element in item:
                visit(element, None, "", visited)
            return
        if isinstance(item, dict) and not path:
            for element in item.values():
                visit(element, None, "", visited)
            return
        children = _trackable_children(item)
        if children is None:
            if path:
                return  # a checkpoint may track plain Python state too
            raise TypeError(
                "Invalid value for `objects`. Expected Keras models, layers, optimizers or "
                "metrics, `tf.Variable`s, `tf.train.Checkpoint`s or `tf.Module`s (or lists "
                f"and dicts of them). Received: {item!r} of type {type(item).__name__}"
            )
        holder = holder or describe(item)
        for name, child in children.items():
            visit(child, holder, f"{path}/{name}" if path else name, visited)

    visit(value, owner, "", set())
    return found
