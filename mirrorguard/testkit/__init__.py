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

from mirrorguard.testkit.devices import DevicesAlreadySetError, split_cpu
from mirrorguard.testkit.oracle import (
    Diagnosis,
    ReplicaMismatchError,
    ReplicaReport,
    VariableDiff,
    compare_replicas,
)
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
