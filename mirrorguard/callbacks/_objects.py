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
from mirrorguard.callbacks._variables import model_variables


@dataclass(frozen=True)
class Held:
    """One variable and what the user passed that holds it."""

    owner: str  # e.g. "model `sequential`", "checkpoint attribute `step`"
    path: str  # the variable's own path or name
    variable: object  # as the object exposes it (a Keras 3 variable wraps the TF one)


def is_variable(value) -> bool:
    """A TF variable, or a Keras 3 variable wrapping one."""
    if isinstance(value, tf.Variable):
        return True
    # Keras 3 variables are not tf.Variables; their TF variable is `_value`.
    return hasattr(value, "path") and isinstance(tf_variable(value), tf.Variable)


def _is_optimizer(value) -> bool:
    return callable(getattr(value, "apply_gradients", None)) and hasattr(value, "variables")


def _is_keras_layer(value) -> bool:
    # Both flavours' Layer (and so Model and, in tf-keras, Metric) have these.
    return hasattr(value, "weights") and callable(getattr(value, "add_weight", None))


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
            return model_variables(value)  # weights, then the optimizer's state
        try:
            variables = list(value.weights)
        except ValueError:  # tf-keras: an unbuilt layer has no weights yet
            variables = []
        if callable(getattr(value, "update_state", None)):
            variables += [v for v in getattr(value, "variables", []) if not any(v is w for w in variables)]
        return variables
    if _is_keras3_metric(value):
        return list(value.variables)
    return None


def _trackable_children(value) -> dict | None:
    children = getattr(value, "_trackable_children", None)
    if not callable(children):
        return None
    try:
        return dict(children())
    except Exception:  # noqa: BLE001 - some trackables need arguments or state to list children
        return None


def variables_of(value, owner: str | None = None) -> list[Held]:
    """Every variable `value` holds, each once, labelled with what holds it.

    Raises:
        TypeError: `value` holds no variables TensorFlow or Keras could track.
    """
    found: list[Held] = []
    seen: set[int] = set()

    def add(variable, holder: str, label: str | None = None) -> None:
        key = id(tf_variable(variable))
        if key not in seen:
            seen.add(key)
            found.append(Held(holder, label or variable_path(variable), variable))

    def visit(item, holder: str | None, path: str, visited: set[int]) -> None:
        if id(item) in visited:
            return
        visited.add(id(item))
        if is_variable(item):
            add(item, holder or describe(item), variable_path(item) if not path else f"{path} ({variable_path(item)})")
            return
        keras_variables = _keras_variables(item)
        if keras_variables is not None:
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
