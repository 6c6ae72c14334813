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


# (end of the explanations' section)
