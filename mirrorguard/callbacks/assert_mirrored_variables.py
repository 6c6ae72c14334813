"""AssertMirroredVariables: fail before the first step if training state is not distributed."""

from __future__ import annotations

import threading

from mirrorguard.callbacks import _hooks, _variables
from mirrorguard.callbacks._keras import Callback, check_choice, is_default_strategy, report, warn
from mirrorguard.errors import NotMirroredError
from mirrorguard.runtime import compat

_PSS = (
    "{guard} does not apply under ParameterServerStrategy: its variables live on the parameter "
    "servers (sharded or not) and training steps run on workers through a coordinator, so there "
    "is no replica-by-replica state or batch for it to check. Training goes on unguarded."
)


def not_applicable_under_pss(guard) -> bool:
    """True (after one warning per guard) when the model trains under a ParameterServerStrategy."""
    if not compat.is_parameter_server_strategy(guard.model.distribute_strategy):
        return False
    if not getattr(guard, "_pss_warned", False):
        guard._pss_warned = True
        warn(_PSS.format(guard=type(guard).__name__))
    return True


class AssertMirroredVariables(_hooks.StepHook, Callback):
    """Asserts that the model and its optimizer live in the strategy's scope.

    Before the first training step, every model weight and optimizer variable
    must be a distributed variable of the strategy the model trains under, with
    one component per replica (for MirroredStrategy, MultiWorkerMirroredStrategy
    and TPUStrategy), or at least have been created in its scope (for
    OneDeviceStrategy and CentralStorageStrategy, which keep one copy). A model
    built outside every scope trains under the default strategy, on one replica:
    when the process sees several GPUs, TPUs or logical CPU devices, that is
    reported too. Variables Keras creates lazily, while tracing the first step,
    are checked at that point, still before the step runs.

    The check runs once per `fit()` on the host and costs nothing per step.
    Under ParameterServerStrategy it says once, in a warning, that it does not apply.

    Example:

    ```python
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input((20,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
    model.fit(
        x, y, batch_size=64,
        callbacks=[mirrorguard.callbacks.AssertMirroredVariables(strategy)],
    )
    ```

    Args:
        strategy: the `tf.distribute.Strategy` the model must train under. With
            `None`, the model's own strategy is checked, and the default strategy
            fails when several devices are configured. Pass
            `tf.distribute.get_strategy()` to declare single-replica training
            intended. Defaults to `None`.
        on_failure: `"raise"` to raise `mirrorguard.NotMirroredError`, `"warn"` to
            emit a warning and let training go on. Defaults to `"raise"`.
    """

    def __init__(self, strategy=None, on_failure="raise"):
        super().__init__()
        if strategy is not None and not (hasattr(strategy, "extended") and hasattr(strategy, "scope")):
            raise ValueError(
                "Invalid value for argument `strategy`. Expected a "
                f"`tf.distribute.Strategy` or None. Received: strategy={strategy!r}"
            )
        check_choice("on_failure", on_failure, ("raise", "warn"))
        self.strategy = strategy
        self.on_failure = on_failure
        self._checked: set[int] = set()
        self._lock = threading.Lock()
        self._failed = False

    def on_train_begin(self, logs=None):
        self._checked = set()
        self._failed = False
        if not_applicable_under_pss(self):
            return
        trained = self.model.distribute_strategy
        if self.strategy is not None and trained is not self.strategy:
            self._fail(_variables.wrong_strategy_message(trained, self.strategy, self.model))
        elif self.strategy is None and is_default_strategy(trained):
            devices = _variables.configured_devices()
            if devices:
                self._fail(_variables.single_replica_message(devices, self.model))
        if not self._failed:
            self._check_variables()
        # The step wrapper still has to see variables created while the first
        # step is traced; the host wrapper tells when that is over.
        _hooks.install(self.model, self)

    def after_step(self, model, data):
        # Runs while the first step is traced, in each replica's thread: Keras
        # creates lazily built variables (tf-keras optimizers, unbuilt layers) there.
        if self._failed:
            return
        with self._lock:
            self._check_variables()

    def after_call(self, model):
        # The first step's variables have been checked while it was traced.
        _hooks.detach(model, self)

    def _check_variables(self):
        strategy = self.model.distribute_strategy
        if is_default_strategy(strategy):
            return  # single replica by choice: plain variables are right
        variables = _variables.model_variables(self.model)
        fresh = [v for v in variables if id(v) not in self._checked]
        self._checked.update(id(v) for v in fresh)
        paths = _variables.unowned(fresh, strategy)
        if paths:  # named by layer where tf-keras leaves a weight without one
            paths = _variables.unowned(fresh, strategy, _variables.layer_paths(self.model))
        if paths:
            self._fail(_variables.unowned_message(paths, len(variables), strategy), paths)

    def _fail(self, message, paths=()):
        self._failed = True
        error = NotMirroredError(message)
        error.variables = tuple(paths)
        if self.on_failure == "raise":
            _hooks.uninstall(self.model, self)
        report(error, self.on_failure)
