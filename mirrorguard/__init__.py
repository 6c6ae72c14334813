"""mirrorguard: catch tf.distribute mistakes before they cost a GPU-day.

Importing this package never imports TensorFlow or Keras; the runtime guards in
:mod:`mirrorguard.callbacks` import them when they are first used.
"""

from __future__ import annotations

from mirrorguard.errors import MirrorGuardError, NotMirroredError, UnevenBatchError

__version__ = "0.1.0"

__all__ = [
    "MirrorGuardError",
    "NotMirroredError",
    "UnevenBatchError",
    "explain_errors",
    "__version__",
]


def __getattr__(name: str):
    # explain_errors is TensorFlow-free too; it is looked up lazily only so that
    # the static checker's start-up does not pay for the runtime side's imports.
    if name == "explain_errors":
        from mirrorguard.explain import explain_errors

        return explain_errors
    raise AttributeError(f"module 'mirrorguard' has no attribute {name!r}")
