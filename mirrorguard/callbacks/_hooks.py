"""Shared wrappers around a model's `train_step` and `train_function`, for training only.

Callbacks see neither the batches nor the moment variables are created, so the
guards hook the two places where both flavours of Keras pass them:

* `train_step(data)` runs in replica context, once per replica, when the train
  function is traced. A hook there adds graph ops to every step (observing shapes)
  or inspects variables Keras created lazily during the trace, before anything runs.
* `train_function(iterator)` is what fit() calls on the host for each step (or
  each `steps_per_execution` steps). A hook there turns what the graph recorded
  into an error or a warning before fit() moves on to the next step.

Keras 3 binds `train_step` in `make_train_function()`, which runs after
`set_model()`; tf-keras looks it up while tracing. Both cache the train function,
so installing the step wrapper drops the cached one, and removing the wrappers
drops it again: the next fit() retraces without mirrorguard's ops.

Lifecycle: the step wrapper is installed from `set_model()` only when that is
called by `fit()` (not `evaluate()` or `predict()`), and adds ops only while a
guarded fit() is live (from `on_train_begin()`). Everything is removed at
`on_train_end()`, when an exception or KeyboardInterrupt leaves the train
function, and, for a fit() that died elsewhere (in another callback, say), at the
first call of the next fit() that does not carry the guards: the stale host
wrapper then restores the model and hands over to a freshly built plain train
function, so that fit() traces exactly what plain Keras traces.

Several guards on one model share one wrapper each way, so that they can be
removed in any order.
"""

from __future__ import annotations

import sys
import weakref

_MISSING = object()
_installed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Keras ends an epoch of unknown length with these; they are not a way out of fit().
_END_OF_DATA = ("StopIteration", "OutOfRangeError")


class StepHook:
    """What a guard may do around each traced step and each host call.

    Listed before ``keras.callbacks.Callback`` in a guard's bases, so the
    lifecycle hooks below win over its no-ops.
    """

    def before_step(self, model, data) -> None:
        """Replica context, at trace time (or every step under `run_eagerly`)."""

    def after_step(self, model, data) -> None:
        """Replica context, after Keras' own step has been traced."""

    def after_call(self, model) -> None:
        """Host, after each `train_function` call returned normally."""

    # Keras callback hooks shared by every guard: wrappers live only while fit() trains.

    def on_train_end(self, logs=None):
        uninstall(self.model, self)

    def on_test_begin(self, logs=None):
        if not is_live(self.model):  # evaluate() on its own: nothing to guard
            uninstall(self.model, self)

    def on_predict_begin(self, logs=None):
        if not is_live(self.model):
            uninstall(self.model, self)


class _Wrappers:
    def __init__(self, model):
        self.hooks: list[StepHook] = []  # called on each step and call
        self.owners: list[StepHook] = []  # installed for this fit(), detached or not
        self.live = False  # a guarded fit() is between on_train_begin and its end
        self.own_step = model.__dict__.get("train_step", _MISSING)
        inner_step = model.train_step
        self.function_wrapped = False

        def train_step(data):
            # A trace outside a guarded fit() gets Keras' step and nothing else.
            hooks = list(self.hooks) if self.live else []
            for hook in hooks:
                hook.before_step(model, data)
            outputs = inner_step(data)
            for hook in hooks:
                hook.after_step(model, data)
            return outputs

        self.train_step = train_step


def called_from(model, max_depth: int = 12) -> str | None:
    """Which of the model's `fit`, `evaluate`, `predict` is on the stack, if any."""
    frame = sys._getframe(1)
    for _ in range(max_depth):
        if frame is None:
            return None
        name = frame.f_code.co_name
        if name in ("fit", "evaluate", "predict") and frame.f_locals.get("self") is model:
            return name
        frame = frame.f_back
    return None


def fit_arguments(model, max_depth: int = 12) -> dict | None:
    """The local variables of the model's running `fit()` (its arguments among them), if found."""
    frame = sys._getframe(1)
    for _ in range(max_depth):
        if frame is None:
            return None
        if frame.f_code.co_name == "fit" and frame.f_locals.get("self") is model:
            return frame.f_locals
        frame = frame.f_back
    return None


def install(model, hook: StepHook) -> None:
    """Adds `hook` to `model`'s train step; call from `set_model()`."""
    if called_from(model) in ("evaluate", "predict"):
        return  # no train step runs: nothing to hook, nothing to leave behind
    wrappers = _installed.get(model)
    if wrappers is None:
        wrappers = _Wrappers(model)
        _installed[model] = wrappers
        model.train_step = wrappers.train_step
    if hook not in wrappers.hooks:
        wrappers.hooks.append(hook)
    if hook not in wrappers.owners:
        wrappers.owners.append(hook)
    # A cached train function was traced without the wrapper.
    model.train_function = None


def _ours(frame, wrappers) -> bool:
    """Whether the fit() calling the train function carries one of the guards (True if unknown)."""
    for _ in range(3):
        if frame is None:
            break
        callbacks = frame.f_locals.get("callbacks")
        listed = getattr(callbacks, "callbacks", None)
        if isinstance(listed, list):
            return any(hook in listed for hook in wrappers.owners)
        frame = frame.f_back
    return True


def wrap_train_function(model) -> None:
    """Makes the step wrapper live and wraps the host-side train function; call from `on_train_begin()`."""
    wrappers = _installed.get(model)
    if wrappers is None:
        return
    wrappers.live = True
    if wrappers.function_wrapped or model.train_function is None:
        return
    inner = model.train_function

    def train_function(*args, **kwargs):
        if _installed.get(model) is not wrappers or not _ours(sys._getframe(1), wrappers):
            # The guarded fit() ended without on_train_end (an exception in a
            # callback, say): this call belongs to a later, unguarded fit().
            restore(model)
            plain = model.make_train_function(force=True)
            return (plain or model.train_function)(*args, **kwargs)
        try:
            outputs = inner(*args, **kwargs)
        except BaseException as error:
            if type(error).__name__ not in _END_OF_DATA:
                restore(model)  # fit() is over: leave the model as plain Keras has it
            raise
        for hook in list(wrappers.hooks):
            hook.after_call(model)
        return outputs

    model.train_function = train_function
    wrappers.function_wrapped = True


def is_live(model) -> bool:
    wrappers = _installed.get(model)
    return wrappers is not None and wrappers.live


def detach(model, hook: StepHook) -> None:
    """Stops calling `hook` for the rest of this fit(); the wrappers stay until its end."""
    wrappers = _installed.get(model)
    if wrappers is not None and hook in wrappers.hooks:
        wrappers.hooks.remove(hook)


def uninstall(model, hook: StepHook) -> None:
    """Removes `hook`; the last one out restores the model's own train step."""
    wrappers = _installed.get(model)
    if wrappers is None:
        return
    if hook in wrappers.hooks:
        wrappers.hooks.remove(hook)
    if hook in wrappers.owners:
        wrappers.owners.remove(hook)
    if not wrappers.owners:
        restore(model)


def restore(model) -> None:
    """Removes every wrapper from `model` and drops its train function, whatever hooks remain."""
    wrappers = _installed.pop(model, None)
    if wrappers is None:
        return
    wrappers.live = False
    wrappers.hooks.clear()
    wrappers.owners.clear()
    if wrappers.own_step is _MISSING:
        try:
            del model.train_step
        except AttributeError:
            object.__delattr__(model, "train_step")
    else:
        model.train_step = wrappers.own_step
    model.train_function = None
