"""Runtime guards for `model.fit()` under a tf.distribute strategy.

The callbacks subclass the `Callback` class of the Keras flavour TensorFlow uses
(Keras 3, or tf-keras when `TF_USE_LEGACY_KERAS=1`), so they are imported lazily:
importing this package does not import TensorFlow.
"""

from __future__ import annotations

import importlib

__all__ = ["AssertMirroredVariables", "AssertEvenBatchSplit"]

_MODULES = {
    "AssertMirroredVariables": "mirrorguard.callbacks.assert_mirrored_variables",
    "AssertEvenBatchSplit": "mirrorguard.callbacks.assert_even_batch_split",
}


def __getattr__(name: str):
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'mirrorguard.callbacks' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(list(globals()) + __all__)
