"""Every private touch of TensorFlow and Keras, in one place.

Each function is named for what it gives and fails loudly (:class:`CompatError`) when the
thing it reads has moved, instead of returning a fallback that would quietly switch a guard
off. ``tests/runtime/test_compat*.py`` has one test per function on every supported version.
Nothing here imports TensorFlow at module import time.
"""

from __future__ import annotations


class CompatError(RuntimeError):
    """A private TensorFlow/Keras detail mirrorguard relies on is not where it used to be."""


# ---------------------------------------------------------------------------
# Guards: variables, steps, XLA (mirrorguard.callbacks, mirrorguard.mirrored)
# ---------------------------------------------------------------------------


def uses_keras3() -> bool:
    """Whether ``tf.keras`` is Keras 3 here (the default) or tf-keras (``TF_USE_LEGACY_KERAS=1``)."""
    import tensorflow as tf

    return tf.keras.callbacks.Callback.__module__.split(".")[0] == "keras"


def strategy_public_name(strategy) -> str:
    """The name users write for the strategy's class: `MultiWorkerMirroredStrategy`, not
    TensorFlow's `CollectiveAllReduceStrategy`; an experimental one keeps its `experimental.`."""
    import tensorflow as tf

    cls = type(strategy)
    for namespace, prefix in ((tf.distribute, ""), (tf.distribute.experimental, "experimental.")):
        for name in dir(namespace):
            if not name.startswith("_") and getattr(namespace, name, None) is cls:
                return prefix + name
    return cls.__name__  # a user's own subclass: its own name


def _guard_missing(what: str, where: str) -> CompatError:
    return CompatError(
        f"mirrorguard cannot find {what} ({where}) in this TensorFlow/Keras version; the guard "
        f"that needs it cannot run. Please report this with `pip show tensorflow keras tf-keras`."
    )


# Where every Keras 3 release defines the class all its variables share (`KerasVariable` in
# Keras 3.3, `Variable` later).
_KERAS3_COMMON_VARIABLES = "keras.src.backend.common.variables"


def keras3_variable_class():
    """The class every Keras 3 variable is an instance of, when Keras 3 is loaded; else None
    (then nothing can be one).

    Not `keras.Variable` itself: up to Keras 3.3 (TensorFlow 2.16's) that is a subclass which
    layers never make (they make the backend's class), so a layer's weight is not an instance
    of it. The base they share is the class of `keras.Variable`'s MRO that Keras's common
    backend module defines.
    """
    import sys

    keras = sys.modules.get("keras")
    if keras is None:
        return None
    variable = getattr(keras, "Variable", None)
    if variable is None:
        if getattr(keras, "__version__", "0").startswith("3"):
            raise _guard_missing("the Keras 3 variable class", "keras.Variable")
        return None
    for cls in variable.__mro__:
        if cls.__module__ == _KERAS3_COMMON_VARIABLES:
            return cls
    raise _guard_missing("the base class of Keras 3 variables", f"keras.Variable's base in {_KERAS3_COMMON_VARIABLES}")


def tf_variable_of(variable):
    """The `tf.Variable` behind `variable`: itself, or a Keras 3 variable's (its `_value`); None for anything else.

    Keras 3's public `value` may cast under mixed precision; `_value` is the variable itself.
    """
    import tensorflow as tf

    if isinstance(variable, tf.Variable):
        return variable
    keras_variable = keras3_variable_class()
    if keras_variable is None or not isinstance(variable, keras_variable):
        return None
    try:
        inner = variable._value  # noqa: SLF001 - the one home of this touch
    except AttributeError:
        raise _guard_missing("the TensorFlow variable of a Keras 3 variable", "keras.Variable._value") from None
    if inner is not None and not isinstance(inner, tf.Variable):
        raise _guard_missing("the TensorFlow variable of a Keras 3 variable", "keras.Variable._value")
    return inner


def steps_per_execution(model) -> int:
    """How many training steps one call of `model.train_function` runs (an int in Keras 3, a variable in tf-keras)."""
    try:
        steps = model.steps_per_execution
    except AttributeError:
        raise _guard_missing("the model's steps per execution", "Model.steps_per_execution") from None
    value = steps.numpy() if hasattr(steps, "numpy") else steps
    return max(1, int(value))


def in_xla_context() -> bool:
    """Whether the function being traced now is compiled by XLA (`jit_compile=True`)."""
    import tensorflow as tf

    try:
        from tensorflow.python.ops import control_flow_util
        probe = control_flow_util.GraphOrParentsInXlaContext
    except (ImportError, AttributeError):
        where = "control_flow_util.GraphOrParentsInXlaContext"
        raise _guard_missing("whether a trace is XLA-compiled", where) from None
    return bool(probe(tf.compat.v1.get_default_graph()))


def replicates_variables(strategy) -> bool:
    """Whether `strategy` keeps one copy of each variable per replica (Mirrored, MultiWorker, TPU)."""
    try:
        from tensorflow.python.distribute import mirrored_strategy
        replicating = [mirrored_strategy.MirroredExtended]
    except (ImportError, AttributeError):
        raise _guard_missing("MirroredStrategy's extended class", "mirrored_strategy.MirroredExtended") from None
    try:
        from tensorflow.python.distribute import tpu_strategy
        replicating.append(tpu_strategy.TPUExtended)
    except ImportError:  # TPU support compiled out: no TPUStrategy to meet either
        pass
    # MultiWorkerMirroredStrategy's extended class derives from MirroredExtended.
    return isinstance(strategy.extended, tuple(replicating))


def is_default_strategy(strategy) -> bool:
    """True for the no-op strategy TensorFlow uses outside every `strategy.scope()`."""
    try:
        from tensorflow.python.distribute import distribute_lib
        defaults = (
            distribute_lib._DefaultDistributionStrategy,  # noqa: SLF001
            distribute_lib._DefaultDistributionStrategyV1,  # noqa: SLF001
        )
    except (ImportError, AttributeError):
        raise _guard_missing("the default strategy's class", "distribute_lib._DefaultDistributionStrategy") from None
    return isinstance(strategy, defaults)


def is_parameter_server_strategy(strategy) -> bool:
    import tensorflow as tf

    classes = [getattr(tf.distribute.experimental, "ParameterServerStrategy", None)]
    classes.append(getattr(getattr(tf.compat.v1.distribute, "experimental", None), "ParameterServerStrategy", None))
    classes = tuple(c for c in classes if isinstance(c, type))
    if not classes:
        raise _guard_missing("ParameterServerStrategy", "tf.distribute.experimental.ParameterServerStrategy")
    return isinstance(strategy, classes)


def strategy_of_variable(variable):
    """The strategy a distributed TF variable belongs to; None for a plain variable (it has none)."""
    import tensorflow as tf

    if not isinstance(variable, tf.distribute.DistributedValues):
        return None
    try:
        return variable._distribute_strategy  # noqa: SLF001
    except AttributeError:
        where = "DistributedVariable._distribute_strategy"
        raise _guard_missing("the strategy of a distributed variable", where) from None


def trackable_children(value) -> dict | None:
    """What a checkpoint would save of `value`, by name; None when `value` is not trackable."""
    from tensorflow.python.trackable import base

    if not isinstance(value, base.Trackable):
        return None
    try:
        children = value._trackable_children  # noqa: SLF001
    except AttributeError:
        raise _guard_missing("a trackable's children", "Trackable._trackable_children") from None
    try:
        return dict(children())
    except Exception:  # noqa: BLE001 - some trackables need state to list children: nothing to walk
        return {}


def child_layers(layer) -> list:
    """The layers directly inside ``layer`` (a model's layers, a layer's sublayers), in order.

    Keras tracks sublayers (attributes, lists, nested models) in ``_flatten_layers`` on both
    Keras 3 and tf-keras; the public ``layers`` lists only a model's top level and a plain
    layer has none, so the oracle would miss the Dropout inside a custom block.
    """
    try:
        flatten = layer._flatten_layers  # noqa: SLF001
    except AttributeError:
        raise _guard_missing("a layer's sublayers", "Layer._flatten_layers") from None
    return list(flatten(include_self=False, recursive=False))


def checkpoint_save_counter(checkpoint):
    """The `save_counter` of a `tf.train.Checkpoint` if a save created it, without creating it."""
    try:
        return checkpoint._save_counter  # noqa: SLF001 - the public property would create it
    except AttributeError:
        raise _guard_missing("a checkpoint's save counter", "tf.train.Checkpoint._save_counter") from None


# ---------------------------------------------------------------------------
# Explanations of errors (mirrorguard.explain)
# ---------------------------------------------------------------------------

# Explanations never import TensorFlow or Keras themselves: an error that came from them
# means the program already did, and one that did not has nothing of theirs to read.


class KerasCall:
    """One call of a Keras API method (``fit``, ``compile``...) that an error passed through.

    ``function`` is the undecorated method (``TensorFlowTrainer.fit``), ``args`` and
    ``kwargs`` as called (``args[0]`` is the model for a method), ``flavour`` is
    "keras3" or "tfkeras".
    """

    __slots__ = ("function", "args", "kwargs", "flavour")

    def __init__(self, function, args, kwargs, flavour):
        self.function, self.args, self.kwargs, self.flavour = function, args, kwargs, flavour

    @property
    def name(self) -> str:
        return getattr(self.function, "__name__", "")

    @property
    def receiver(self):
        """The object the method was called on, or None for a plain function."""
        if self.args and getattr(type(self.args[0]), self.name, None) is not None:
            return self.args[0]
        return None


_KERAS_TRACEBACK_MODULES = {
    "keras3": "keras.src.utils.traceback_utils",
    "tfkeras": "tf_keras.src.utils.traceback_utils",
}


def _keras_handler_codes() -> dict:
    """The code object of each loaded Keras's traceback-filtering wrapper, by flavour."""
    import sys

    codes = {}
    for flavour, module_name in _KERAS_TRACEBACK_MODULES.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue
        wrap = getattr(module, "filter_traceback", None)
        if wrap is None:
            raise CompatError(f"{module_name}.filter_traceback is gone: Keras API calls cannot be found in errors")
        codes[wrap(_probe).__code__] = flavour
    return codes


def _probe():  # something for filter_traceback to wrap
    return None


def keras_calls(traceback) -> list[KerasCall]:
    """The Keras API calls an error passed through, outermost first.

    Keras wraps its public methods (``fit``, ``evaluate``, ``compile``...) in
    ``traceback_utils.filter_traceback``; that wrapper's frame is kept when Keras
    filters its own frames out of a traceback, and holds the call as its locals
    ``fn``, ``args`` and ``kwargs``.
    """
    codes = _keras_handler_codes()
    calls = []
    for frame in _frames(traceback):
        flavour = codes.get(frame.f_code)
        if flavour is None:
            continue
        local = frame.f_locals
        if not {"fn", "args", "kwargs"} <= local.keys():
            raise CompatError(
                f"Keras's error handler ({flavour}) no longer holds `fn`, `args`, `kwargs`: found {sorted(local)}"
            )
        calls.append(KerasCall(local["fn"], tuple(local["args"]), dict(local["kwargs"]), flavour))
    return calls


class ReduceCall:
    """One ``strategy.reduce(reduce_op, value, axis)`` call that an error passed through."""

    __slots__ = ("strategy", "reduce_op", "value", "axis")

    def __init__(self, strategy, reduce_op, value, axis):
        self.strategy, self.reduce_op, self.value, self.axis = strategy, reduce_op, value, axis


def strategy_reduce_calls(traceback) -> list[ReduceCall]:
    """The ``tf.distribute.Strategy.reduce`` calls an error passed through, outermost first.

    Run eagerly, TensorFlow keeps its own frames in the traceback, and the frame of
    ``StrategyBase.reduce`` holds the call's arguments. Inside a ``tf.function`` the
    error is raised at trace time from generated code, and no such frame exists.
    """
    import inspect
    import sys

    tf = sys.modules.get("tensorflow")
    if tf is None:
        return []
    codes = set()
    for base in (tf.distribute.Strategy, tf.compat.v1.distribute.Strategy):
        for cls in base.__mro__:
            method = cls.__dict__.get("reduce")
            if method is not None:
                codes.add(inspect.unwrap(method).__code__)
    if not codes:
        raise CompatError("tf.distribute.Strategy has no `reduce` method any more")
    calls = []
    for frame in _frames(traceback):
        if frame.f_code not in codes:
            continue
        local = frame.f_locals
        if not {"self", "reduce_op", "value", "axis"} <= local.keys():
            raise CompatError(f"Strategy.reduce's frame no longer holds its arguments: found {sorted(local)}")
        calls.append(ReduceCall(local["self"], local["reduce_op"], local["value"], local["axis"]))
    return calls


def dataset_batch_size(dataset) -> int | None:
    """The batch size of the dataset's last batching transformation (``batch``, ``padded_batch``...).

    None when the dataset has no batching transformation TensorFlow can see, or one that
    a later transformation may change. Read with TensorFlow's own ComputeBatchSize op
    (what tf.distribute uses to rebatch) on the dataset's variant tensor: unlike the
    element spec, it tells ``batch(9, drop_remainder=True)`` from one example of 9 values.
    """
    import sys

    tf = sys.modules.get("tensorflow")
    if tf is None or not isinstance(dataset, tf.data.Dataset):
        return None
    try:
        from tensorflow.python.ops import gen_experimental_dataset_ops as ops
    except ImportError as moved:
        raise CompatError(f"TensorFlow's ComputeBatchSize op is gone: {moved}") from moved
    variant = getattr(dataset, "_variant_tensor", None)
    if variant is None or not hasattr(ops, "compute_batch_size"):
        raise CompatError("a dataset's batch size cannot be read: `_variant_tensor` or ComputeBatchSize moved")
    with tf.device("/cpu:0"):
        size = int(ops.compute_batch_size(variant))
    return size if size > 0 else None


def _frames(traceback):
    while traceback is not None:
        yield traceback.tb_frame
        traceback = traceback.tb_next
