"""The fit() wrapper that replaces stack-frame reading: fit()'s arguments, once per fit(), and a dead fit()'s
wrappers removed at the next one. No TensorFlow: a stand-in model class with Keras' method names."""

from __future__ import annotations

import pytest

from mirrorguard.callbacks import _hooks


class Model:
    def __init__(self):
        self.train_function = None
        self.seen = []

    def train_step(self, data):
        return data

    def make_train_function(self, force=False):
        if self.train_function is None or force:
            self.train_function = lambda iterator: self.train_step(iterator)
        return self.train_function

    def fit(self, x=None, y=None, batch_size=None, epochs=1, callbacks=None, validation_split=0.0, shuffle=True,
            **kwargs):
        self.seen.append(_hooks.running_fit(self))
        for hook in callbacks or []:
            hook.model = self
            hook.on_train_begin()
        self.make_train_function()
        for step in range(epochs):
            self.train_function(step)
        for hook in callbacks or []:
            if getattr(hook, "die", False):
                raise ValueError("another callback failed")
            hook.on_train_end()
        return "history"


_hooks.fit_wrapper(Model)


class Guard(_hooks.StepHook):
    def __init__(self, die=False):
        self.die = die
        self.calls = 0

    def on_train_begin(self):
        _hooks.install(self.model, self)

    def after_call(self, model):
        self.calls += 1


def test_fit_arguments_are_recorded_for_the_running_fit_only():
    model = Model()
    assert model.fit([1, 2], batch_size=16, validation_split=0.25, steps_per_epoch=3) == "history"
    [call] = model.seen
    assert call.arguments["x"] == [1, 2] and call.arguments["batch_size"] == 16
    assert call.arguments["validation_split"] == 0.25 and call.arguments["shuffle"] is True
    assert call.arguments["steps_per_epoch"] == 3  # through **kwargs
    assert _hooks.running_fit(model) is None  # over


def test_wrapping_twice_is_a_no_op():
    wrapped = Model.fit
    _hooks.fit_wrapper(Model)
    assert Model.fit is wrapped


def test_guard_hooks_each_call_and_leaves_the_model_plain():
    model = Model()
    guard = Guard()
    model.fit(epochs=3, callbacks=[guard])
    assert guard.calls == 3
    assert "train_step" not in vars(model) and model.train_function is None


def test_a_dead_fit_leaves_wrappers_that_the_next_fit_removes_before_it_trains():
    model = Model()
    guard = Guard(die=True)
    with pytest.raises(ValueError, match="another callback failed"):
        model.fit(epochs=2, callbacks=[guard])
    assert "train_step" in vars(model)  # left behind: on_train_end never ran
    model.fit(epochs=2)  # unguarded
    assert guard.calls == 2  # the plain fit() did not call the dead guard
    assert "train_step" not in vars(model)
