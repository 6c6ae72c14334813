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


# (end of the guards' section)




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


# (end of the explanations' section)
