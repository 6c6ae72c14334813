"""Logical CPU devices: the multi-replica path on a machine without GPUs."""

from __future__ import annotations


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
