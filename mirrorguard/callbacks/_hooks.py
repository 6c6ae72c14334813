"""Shared wrappers around a model's `train_step` and `train_function`.

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

Several guards on one model share one wrapper each way, so that they can be
removed in any order.
"""

from __future__ import annotations

import weakref

_MISSING = object()
_installed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class StepHook:
    """What a guard may do around each traced step and each host call."""

    def before_step(self, model, data) -> None:
        """Replica context, at trace time (or every step under `run_eagerly`)."""

    def after_step(self, model, data) -> None:
        """Replica context, after Keras' own step has been traced."""

    def after_call(self, model) -> None:
        """Host, after each `train_function` call returned normally."""


class _Wrappers:
    def __init__(self, model):
        self.hooks: list[StepHook] = []
        self.own_step = model.__dict__.get("train_step", _MISSING)
        inner_step = model.train_step
        self.function_wrapped = False

        def train_step(data):
            for hook in list(self.hooks):
                hook.before_step(model, data)
            outputs = inner_step(data)
            for hook in list(self.hooks):
                hook.after_step(model, data)
            return outputs

        self.train_step = train_step


def install(model, hook: StepHook) -> None:
    """Adds `hook` to `model`'s train step; call from `set_model()`."""
    wrappers = _installed.get(model)
    if wrappers is None:
        wrappers = _Wrappers(model)
        _installed[model] = wrappers
        model.train_step = wrappers.train_step
    if hook not in wrappers.hooks:
        wrappers.hooks.append(hook)
    # A cached train function was traced without the wrapper.
    model.train_function = None


def wrap_train_function(model) -> None:
    """Wraps the host-side train function; call from `on_train_begin()`."""
    wrappers = _installed.get(model)
    if wrappers is None or wrappers.function_wrapped or model.train_function is None:
        return
    inner = model.train_function

    def train_function(*args, **kwargs):
        outputs = inner(*args, **kwargs)
        for hook in list(wrappers.hooks):
            hook.after_call(model)
        return outputs

    model.train_function = train_function
    wrappers.function_wrapped = True


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
    if wrappers.hooks:
        return
    del _installed[model]
    if wrappers.own_step is _MISSING:
        try:
            del model.train_step
        except AttributeError:
            object.__delattr__(model, "train_step")
    else:
        model.train_step = wrappers.own_step
    model.train_function = None
