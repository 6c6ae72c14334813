"""Shared wrappers around a model's `train_step` and `train_function`, for training only.

Callbacks see neither the batches nor the moment variables are created, so the
guards hook the two places where both flavours of Keras pass them:

* `train_step(data)` runs in replica context, once per replica, when the train
  function is traced. A hook there adds graph ops to every step (observing shapes)
  or inspects variables Keras created lazily during the trace, before anything runs.
* `train_function(iterator)` is what fit() calls on the host for each step (or
  each `steps_per_execution` steps). A hook there turns what the graph recorded
  into an error or a warning before fit() moves on to the next step.

Everything is installed from `on_train_begin()`, which only `fit()` calls: the
step wrapper replaces the model's `train_step` and a fresh train function is made
from it (Keras made one just before, not traced yet, so nothing is thrown away),
then the host wrapper wraps that. `evaluate()` and `predict()` are never touched.
Everything is removed at `on_train_end()` and when an exception or
KeyboardInterrupt leaves the train function.

A fit() that died elsewhere (another callback raised, say) leaves the wrappers on
the model. mirrorguard wraps the flavour's `Model.fit` (the public method, see
`fit_wrapper`), so the next fit() of that model, guarded or not, starts by removing
them: this is decided once per fit(), never per step. The same wrapper gives the
guards fit()'s own arguments (`running_fit`), which decide where the data's
remainder falls.

Several guards on one model share one wrapper each way, so that they can be
removed in any order.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import weakref
from dataclasses import dataclass, field

_MISSING = object()
_installed: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_running: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # model -> [FitCall], innermost last
# Keras ends an epoch of unknown length with these; they are not a way out of fit().
_END_OF_DATA = ("StopIteration", "OutOfRangeError")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


@dataclass
class FitCall:
    """One running `fit()`: its arguments by name, as the caller passed them or as defaults."""

    arguments: dict = field(default_factory=dict)


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

    def on_train_end(self, logs=None):
        uninstall(self.model, self)


class _Wrappers:
    def __init__(self, model):
        self.hooks: list[StepHook] = []  # called on each step and call
        self.owners: list[StepHook] = []  # installed for this fit(), detached or not
        self.own_step = model.__dict__.get("train_step", _MISSING)
        inner_step = model.train_step
        self.function_wrapped = False

        def train_step(data):
            hooks = list(self.hooks)
            for hook in hooks:
                hook.before_step(model, data)
            outputs = inner_step(data)
            for hook in hooks:
                hook.after_step(model, data)
            return outputs

        self.train_step = train_step


def running_fit(model) -> FitCall | None:
    """The innermost `fit()` of `model` now running, if mirrorguard's fit wrapper saw it start."""
    calls = _running.get(model)
    return calls[-1] if calls else None


def fit_wrapper(model_class) -> None:
    """Wraps `model_class.fit` once, so that each fit() records its arguments and clears stale wrappers.

    Called when the guards are first imported; `fit` is public API, so this reads
    nothing private. Models whose class replaces `fit` without calling it are not seen.
    """
    from mirrorguard.errors import MirrorGuardError

    original = model_class.fit
    if getattr(original, "__mirrorguard_wrapped__", False):
        return
    signature = inspect.signature(original)

    @functools.wraps(original)
    def fit(self, *args, **kwargs):
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:
            return original(self, *args, **kwargs)  # Keras reports the bad call itself
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop(next(iter(signature.parameters)), None)  # self
        arguments.update(arguments.pop("kwargs", None) or {})
        calls = _running.setdefault(self, [])
        if not calls and self in _installed:
            # A guarded fit() that ended without on_train_end (an exception in
            # another callback, say): leave the model as plain Keras has it.
            restore(self)
        calls.append(FitCall(arguments))
        try:
            return original(self, *args, **kwargs)
        except MirrorGuardError as error:
            raise _without_our_frames(error)  # noqa: B904 - the same error, with a shorter traceback
        finally:
            calls.pop()

    fit.__mirrorguard_wrapped__ = True
    model_class.fit = fit


def _filtering_enabled() -> bool:
    import tensorflow as tf

    from mirrorguard.runtime import compat

    if compat.uses_keras3():
        import keras

        return bool(keras.config.is_traceback_filtering_enabled())
    return bool(tf.debugging.is_traceback_filtering_enabled())


def _without_our_frames(error: BaseException) -> BaseException:
    """`error` with mirrorguard's own frames taken out of its traceback, as Keras filters its own.

    Only mirrorguard's errors are touched, and only while Keras' own filtering is on
    (`keras.config.disable_traceback_filtering()` shows every frame again).
    """
    if not _filtering_enabled():
        return error
    kept = None
    frames = []
    tb = error.__traceback__
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_PACKAGE):
            frames.append(tb)
        tb = tb.tb_next
    for tb in reversed(frames):
        kept = type(tb)(kept, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    return error.with_traceback(kept)


def user_stacklevel() -> int:
    """The `stacklevel` for `warnings.warn` called here that points at the first frame outside
    mirrorguard, Keras and TensorFlow: the user's `fit()` line. Counted only when a warning is due."""
    skip = [_PACKAGE]
    for name in ("keras", "tf_keras", "tensorflow"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            skip.append(os.path.dirname(os.path.abspath(module.__file__)) + os.sep)
    level = 1
    frame = sys._getframe(1)  # noqa: SLF001 - what warnings.warn counts; not a look at fit()
    while frame is not None and frame.f_code.co_filename.startswith(tuple(skip)):
        frame = frame.f_back
        level += 1
    return level


def install(model, hook: StepHook) -> None:
    """Adds `hook` to `model`'s train step and wraps the host train function; call from `on_train_begin()`."""
    wrappers = _installed.get(model)
    if wrappers is None:
        wrappers = _Wrappers(model)
        _installed[model] = wrappers
        model.train_step = wrappers.train_step
    if hook not in wrappers.hooks:
        wrappers.hooks.append(hook)
    if hook not in wrappers.owners:
        wrappers.owners.append(hook)
    if not wrappers.function_wrapped:
        # Keras made its train function from its own step just before
        # on_train_begin; nothing was traced yet, so a new one costs nothing.
        model.train_function = None
        model.make_train_function(force=True)
        _wrap_train_function(model, wrappers)


def _wrap_train_function(model, wrappers: _Wrappers) -> None:
    inner = model.train_function

    def train_function(*args, **kwargs):
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
