"""mirrorguard test kit: run the multi-replica path in CI without GPUs.

The pytest plugin (:mod:`mirrorguard.testkit.pytest_plugin`, loaded automatically
once mirrorguard is installed) gives tests a ``mirrored_strategy`` over N logical
CPU devices. :func:`split_cpu` is the same set-up for scripts and notebooks.
:func:`compare_replicas` (the replica oracle, :mod:`mirrorguard.testkit.oracle`)
checks that a training step computes the same update on 1 replica and on N.
:func:`run_workers` runs a function in N local worker processes that form one
``TF_CONFIG`` cluster, to rehearse multi-worker training.
Nothing here imports TensorFlow until one of these functions is called.
"""

from __future__ import annotations

from mirrorguard.testkit.workers import Workers, WorkersFailed, WorkersTimedOut, run_workers, task_index

__all__ = [
    "DevicesAlreadySetError",
    "Diagnosis",
    "ReplicaMismatchError",
    "ReplicaReport",
    "VariableDiff",
    "Workers",
    "WorkersFailed",
    "WorkersTimedOut",
    "compare_replicas",
    "run_workers",
    "split_cpu",
    "task_index",
]


class DevicesAlreadySetError(RuntimeError):
    """TensorFlow's devices were fixed, with a different CPU count, before we could split the CPU."""


def split_cpu(replicas: int) -> list[str]:
    """Split the first CPU into ``replicas`` logical devices and return their names.

    Call it before TensorFlow runs its first op: devices are fixed from then on.
    Calling it again with the same count is harmless; with another count, or after
    TensorFlow started with a different one, it raises :class:`DevicesAlreadySetError`.
    """
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    wanted = [tf.config.LogicalDeviceConfiguration() for _ in range(replicas)]
    current = tf.config.get_logical_device_configuration(cpu)
    if current is not None and len(current) != replicas:
        raise DevicesAlreadySetError(
            f"the CPU was already split into {len(current)} logical devices, not {replicas}"
        )
    try:
        tf.config.set_logical_device_configuration(cpu, wanted)
    except RuntimeError:
        # The runtime has started; that is fine only if it started with our devices.
        found = len(tf.config.list_logical_devices("CPU"))
        if found != replicas:
            raise DevicesAlreadySetError(
                f"TensorFlow already started with {found} logical CPU device(s), not {replicas}"
            ) from None
    return [f"/cpu:{i}" for i in range(replicas)]


# Last, so the oracle can use split_cpu without an import cycle (it imports no TensorFlow either).
from mirrorguard.testkit.oracle import (  # noqa: E402
    Diagnosis,
    ReplicaMismatchError,
    ReplicaReport,
    VariableDiff,
    compare_replicas,
)
