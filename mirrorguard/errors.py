"""Exceptions raised by mirrorguard's runtime guards.

They live in their own TensorFlow-free module so that ``import mirrorguard`` and
``except mirrorguard.NotMirroredError`` cost nothing in a pre-commit environment.
"""

from __future__ import annotations


class MirrorGuardError(RuntimeError):
    """Base class: a tf.distribute invariant that mirrorguard checks was broken."""


class NotMirroredError(MirrorGuardError):
    """Model or optimizer variables are not distributed variables of the strategy.

    Attributes:
        variables: paths of the offending variables, when known (the guards
            list every one; errors translated by `explain_errors` hold the
            names TensorFlow printed, often one or none).
    """

    variables: tuple[str, ...] = ()


class UnevenBatchError(MirrorGuardError):
    """A global batch does not split evenly across the replicas in sync.

    Attributes:
        global_batch_size: rows in the global batch, or None when unknown.
        num_replicas: replicas in sync, or None when unknown.
        split: rows each replica received, in replica order (may be partial
            when translated from a TensorFlow error).
        step: 0-based step within the epoch, or None when unknown.
        epoch: 0-based epoch, or None when unknown.
    """

    global_batch_size: int | None = None
    num_replicas: int | None = None
    split: tuple[int, ...] = ()
    step: int | None = None
    epoch: int | None = None


class LossReductionError(MirrorGuardError):
    """A loss is reduced per replica where it must be averaged over the global batch.

    Raised by `explain_errors` for tf-keras' refusal of a loss object with its
    default reduction inside a replica function.
    """
