"""mirrorguard: catch tf.distribute mistakes before they cost a GPU-day.

Importing this package never imports TensorFlow or Keras; the runtime guards in
:mod:`mirrorguard.callbacks` and `assert_mirrored` import them when they are first used.
"""

from __future__ import annotations

from mirrorguard.errors import LossReductionError, MirrorGuardError, NotMirroredError, UnevenBatchError

__version__ = "0.1.0"

__all__ = [
    "LossReductionError",
    "MirrorGuardError",
    "NotMirroredError",
    "UnevenBatchError",
    "assert_mirrored",
    "explain_errors",
    "__version__",
]


def __getattr__(name: str):
    # explain_errors and assert_mirrored import no TensorFlow either (the latter
    # only when called); they are looked up lazily only so that the static
    # checker's start-up does not pay for the runtime side's imports.
    if name == "explain_errors":
        from mirrorguard.explain import explain_errors

        return explain_errors
    if name == "assert_mirrored":
        from mirrorguard.mirrored import assert_mirrored

        return assert_mirrored
    raise AttributeError(f"module 'mirrorguard' has no attribute {name!r}")
