"""Exceptions raised by mirrorguard's runtime guards.

They live in their own TensorFlow-free module so that ``import mirrorguard`` and
``except mirrorguard.NotMirroredError`` cost nothing in a pre-commit environment.
"""

from __future__ import annotations


class MirrorGuardError(RuntimeError):
    """Base class: a tf.distribute invariant that mirrorguard checks was broken."""


class NotMirroredError(MirrorGuardError):
    """Model or optimizer variables are not distributed variables of the strategy."""


class UnevenBatchError(MirrorGuardError):
    """A global batch does not split evenly across the replicas in sync."""
