"""Pick the devices a strategy will replicate over.

Logical CPU devices and visible GPUs can only be set before TensorFlow's runtime
starts, so :func:`configure_devices` must run before the first op or strategy.
"""

from __future__ import annotations

import json
import os


class SetupError(Exception):
    """A setting the user can fix (shown as ``mirrorguard train: error: ...``, exit 2)."""


def configure_devices(tf, gpus: list[int] | None, replicas: int | None) -> list[str]:
    """Make the requested devices visible and return their names for a strategy."""
    physical_gpus = tf.config.list_physical_devices("GPU")
    if gpus is not None:
        missing = [i for i in gpus if i >= len(physical_gpus)]
        if missing:
            raise SetupError(
                f"--gpus asks for GPU {missing[0]} but this machine has "
                f"{len(physical_gpus)} GPU(s)"
            )
        physical_gpus = [physical_gpus[i] for i in gpus]
        tf.config.set_visible_devices(physical_gpus, "GPU")

    if physical_gpus:
        if replicas is not None and replicas != len(physical_gpus):
            # On GPUs the replica count is the GPU count; silently training on a
            # different number than asked for would hide a mistake.
            raise SetupError(
                f"--replicas {replicas} is for CPU-only machines; this one has "
                f"{len(physical_gpus)} visible GPU(s) (choose them with --gpus)"
            )
        return [f"/gpu:{i}" for i in range(len(physical_gpus))]

    # CPU only: split the one physical CPU into N logical devices so that the
    # multi-replica code paths (MirroredVariable, PerReplica batches) really run.
    count = replicas or 1
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(count)]
    )
    return [f"/cpu:{i}" for i in range(count)]


def worker_task() -> tuple[str, int]:
    """Return this process's (type, index) from TF_CONFIG, checking it is usable."""
    raw = os.environ.get("TF_CONFIG")
    if not raw:
        raise SetupError(
            "--strategy multiworker needs the TF_CONFIG environment variable "
            "(see docs/train.md, 'Several workers')"
        )
    try:
        task = json.loads(raw)["task"]
        return task["type"], int(task["index"])
    except (ValueError, KeyError, TypeError) as error:
        raise SetupError(f"TF_CONFIG is not valid JSON with a 'task': {error}") from None


def worker_count() -> int:
    """How many processes train together: the chief and the workers of TF_CONFIG's cluster."""
    cluster = json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster", {})
    return max(1, len(cluster.get("chief", ())) + len(cluster.get("worker", ())))
