"""The Keras flavour in use, as TensorFlow resolves it, and small helpers shared by the guards."""

from __future__ import annotations

import warnings

import tensorflow as tf

from mirrorguard.callbacks import _hooks
from mirrorguard.runtime import compat

# `tf.keras` is Keras 3 by default and tf-keras when TF_USE_LEGACY_KERAS=1; the
# callbacks must subclass the Callback class that the model's fit() expects.
Callback = tf.keras.callbacks.Callback
KERAS3 = compat.uses_keras3()

# Every fit() records its arguments and clears a dead fit()'s wrappers (see _hooks).
_hooks.fit_wrapper(tf.keras.Model)


def check_choice(name: str, value, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(
            f"Invalid value for argument `{name}`. Expected one of "
            f"{', '.join(repr(c) for c in choices)}. Received: {name}={value!r}"
        )


def report(error: Exception, on_failure: str) -> None:
    """Raises `error`, or warns with its message when `on_failure="warn"`, pointing at the user's fit() line."""
    if on_failure == "raise":
        raise error
    warn(f"{type(error).__name__}: {error}")


def warn(message: str) -> None:
    """A UserWarning attributed to the user's line (their `fit()` call), not to mirrorguard or Keras."""
    warnings.warn(message, UserWarning, stacklevel=_hooks.user_stacklevel())


def tf_variable(variable):
    """The TensorFlow variable behind a Keras variable (Keras 3 wraps it; tf-keras uses TF variables)."""
    inner = compat.tf_variable_of(variable)
    return inner if inner is not None else variable


def variable_path(variable) -> str:
    # A TF variable first: an unknown attribute of a SyncOnReadVariable falls
    # through to its value, which reduces it across replicas (device work).
    path = None if isinstance(variable, tf.Variable) else getattr(variable, "path", None)
    if path:  # Keras 3: "dense/kernel"
        return str(path)
    name = str(getattr(variable, "name", variable))  # tf-keras: "dense/kernel:0"
    return name[:-2] if name.endswith(":0") else name


def optimizer_variables(optimizer) -> list:
    if optimizer is None:
        return []
    variables = getattr(optimizer, "variables", [])
    if callable(variables):  # tf-keras legacy optimizers expose a method
        variables = variables()
    return list(variables)


is_default_strategy = compat.is_default_strategy
