"""Per-step cost of the runtime guards: fit() with and without them, side by side.

    TF_USE_LEGACY_KERAS=0 .venv/bin/python benchmarks/bench_callbacks.py --replicas 2 --rounds 7
    TF_USE_LEGACY_KERAS=1 .venv/bin/python benchmarks/bench_callbacks.py --replicas 4 --rounds 7

Three identical models train under one MirroredStrategy on logical CPU devices
(or the GPUs, with --gpus): two plain, one guarded. Each round fits each of them,
in an order that rotates from round to round so that drift (thermal, other load)
hits all alike. The plain/plain ratio is the control: it shows how much the
machine's noise alone moves a ratio.
Within each fit() the epochs after the first are timed with an epoch-level
callback, keeping each fit()'s fastest (load on a shared machine only adds
time); the report is the median over rounds of guarded / plain epoch time
(target: at most 1.05 per step, issue 21) beside the control's, and apart from it the first epoch of
each fit(), which carries the guards' one retrace per fit(). Last, the cost of
one `mirrorguard.assert_mirrored(strategy, model, optimizer, checkpoint)` call
beside one training step, for custom loops that call it every N steps.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2, help="logical CPU devices (ignored with --gpus)")
    parser.add_argument("--gpus", action="store_true", help="use every visible GPU instead")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=200, help="steps per epoch")
    parser.add_argument("--epochs", type=int, default=4, help="epochs per fit(); the first is reported apart")
    parser.add_argument("--per-replica", type=int, default=64, help="rows per replica per step")
    parser.add_argument("--width", type=int, default=256)
    args = parser.parse_args(argv)

    import numpy as np
    import tensorflow as tf

    if args.gpus:
        devices = [d.name for d in tf.config.list_logical_devices("GPU")]
    else:
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * args.replicas)
        devices = [f"/cpu:{i}" for i in range(args.replicas)]
    keras = tf.keras
    from mirrorguard.callbacks import AssertEvenBatchSplit, AssertMirroredVariables

    strategy = tf.distribute.MirroredStrategy(devices)
    batch = args.per_replica * strategy.num_replicas_in_sync
    rows = batch * args.steps
    rng = np.random.default_rng(0)
    x = rng.normal(size=(rows, 32)).astype("float32")
    y = rng.normal(size=(rows, 1)).astype("float32")
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch, drop_remainder=True).cache().prefetch(2)

    def model():
        with strategy.scope():
            m = keras.Sequential(
                [keras.Input((32,)), keras.layers.Dense(args.width, "relu"), keras.layers.Dense(args.width, "relu"),
                 keras.layers.Dense(1)]
            )
            m.compile(optimizer="adam", loss="mse")
        return m

    plain, control, guarded = model(), model(), model()

    class EpochTimer(keras.callbacks.Callback):
        # Epoch hooks only: batch hooks would turn off Keras 3's async dispatch.
        def __init__(self):
            super().__init__()
            self.times = []

        def on_epoch_begin(self, epoch, logs=None):
            self.started = time.perf_counter()

        def on_epoch_end(self, epoch, logs=None):
            self.times.append(time.perf_counter() - self.started)

    def run(m, guards):
        # The guards drop Keras' cached train function to add their hook, so each
        # guarded fit() retraces once: the first epoch is reported apart.
        timer = EpochTimer()
        m.fit(dataset, epochs=args.epochs, verbose=0, shuffle=False, callbacks=[*guards, timer])
        # The fastest later epoch: background load only ever adds time.
        return timer.times[0], min(timer.times[1:])

    ratios, controls, first_plain, first_guarded, plain_epochs = [], [], [], [], []
    steps_ms = {"plain": [], "control": [], "guarded": []}  # fastest later epoch of each fit()
    for index in range(args.rounds):
        order = [
            ("plain", plain, []),
            ("control", control, []),
            ("guarded", guarded, [AssertMirroredVariables(strategy), AssertEvenBatchSplit()]),
        ]
        order = order[index % 3 :] + order[: index % 3]
        times = {name: run(m, guards) for name, m, guards in order}
        for name in steps_ms:
            steps_ms[name].append(times[name][1])
        ratios.append(times["guarded"][1] / times["plain"][1])
        controls.append(times["control"][1] / times["plain"][1])
        first_plain.append(times["plain"][0])
        plain_epochs.append(times["plain"][1])
        first_guarded.append(times["guarded"][0])
        print(
            f"round {index}: epoch plain {times['plain'][1]:.3f}s control {times['control'][1]:.3f}s "
            f"guarded {times['guarded'][1]:.3f}s; guarded/plain {ratios[-1]:.4f}, control/plain {controls[-1]:.4f}"
        )
    flavour = "tf-keras" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "Keras 3"
    median, noise = statistics.median(ratios), statistics.median(controls)
    per_step = {name: statistics.median(times) / args.steps * 1e3 for name, times in steps_ms.items()}
    print(
        f"{flavour}, {strategy.num_replicas_in_sync} replicas on {', '.join(devices)}, {args.steps} steps/epoch: "
        f"per step (median of rounds) plain {per_step['plain']:.2f} ms, control {per_step['control']:.2f} ms, "
        f"guarded {per_step['guarded']:.2f} ms; "
        f"median guarded/plain per-step time {median:.4f} ({(median - 1) * 100:+.2f} %, rounds "
        f"{min(ratios):.3f}-{max(ratios):.3f}); control plain/plain {noise:.4f} (rounds "
        f"{min(controls):.3f}-{max(controls):.3f}); first epoch of each fit() (trace included) "
        f"{statistics.median(first_plain):.3f}s plain, {statistics.median(first_guarded):.3f}s guarded"
    )

    # What the guards do on the host per train-function call, timed alone (wall-clock noise
    # from other processes hits a few microseconds far less than a whole epoch): a guarded
    # fit() of one epoch, then each guard's after-call hook called as fit() calls it.
    from mirrorguard.callbacks import _hooks

    probe_guards = [AssertMirroredVariables(strategy), AssertEvenBatchSplit()]
    seen_hooks = []

    class Capture(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            wrappers = _hooks._installed.get(self.model)  # noqa: SLF001 - the live hooks, for timing only
            seen_hooks.extend(wrappers.hooks if wrappers is not None else [])

    guarded.fit(dataset, epochs=1, verbose=0, callbacks=[*probe_guards, Capture()])
    host_calls = 20_000
    started = time.perf_counter()
    for _ in range(host_calls):
        for hook in seen_hooks:
            hook.after_call(guarded)
    host = (time.perf_counter() - started) / host_calls
    step = statistics.median(plain_epochs) / args.steps
    print(
        f"host work of the guards per train-function call: {host * 1e6:.1f} us "
        f"({host / step * 100:.3f} % of a {step * 1e3:.2f} ms plain step; hooks live: "
        f"{', '.join(type(h).__name__ for h in seen_hooks) or 'none'})"
    )

    import mirrorguard

    optimizer = plain.optimizer
    checkpoint = tf.train.Checkpoint(model=plain, optimizer=optimizer)
    calls = 200
    started = time.perf_counter()
    for _ in range(calls):
        mirrorguard.assert_mirrored(strategy, plain, optimizer, checkpoint)
    per_call = (time.perf_counter() - started) / calls
    print(
        f"assert_mirrored(strategy, model, optimizer, checkpoint) over {len(plain.weights)} weights: "
        f"{per_call * 1e3:.2f} ms per call, {per_call / step:.2f} training steps ({step * 1e3:.2f} ms each)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
