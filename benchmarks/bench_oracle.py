"""What the replica oracle costs on the reference model (small ResNet, 2 steps), and where it goes.

    python benchmarks/bench_oracle.py [--rounds 3] [--flavour keras3|tfkeras]

Each round starts one fresh process (the oracle needs a process whose CPU it can
split) that measures, in order, with process CPU time and wall time:

1. ``start``: importing TensorFlow and splitting the CPU into 2 logical devices;
2. ``baseline``: what a user's own smoke test pays: ``build_fit`` on 2 replicas
   plus ``fit`` for 2 steps (build, tracing, steps);
3. ``oracle (2 steps)``: ``compare_replicas(build_fit, ...)``, the fit form;
4. ``oracle (6 steps)``: the same with 6 steps, so that the cost of a step is
   ``(6-step - 2-step) / 4`` and what is left of the 2-step run is building and
   tracing;
5. ``custom loop (2 steps)``: ``compare_replicas(build_custom_loop, ...)``.

It prints medians over the rounds and the oracle's cost as a ratio of the baseline
(both measured in the same process, side by side). Machines are shared and noisy:
read the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "MG-BENCH "

CHILD = r"""
import json, os, resource, sys, time

def clock():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), usage.ru_utime + usage.ru_stime

def since(start):
    wall, cpu = clock()
    return {"wall": wall - start[0], "cpu": cpu - start[1]}

figures = {}
t = clock()
import tensorflow as tf
from mirrorguard.testkit import split_cpu
split_cpu(2)
tf.constant(0.0)  # the runtime starts here
figures["start"] = since(t)

from mirrorguard.testkit import ReplicaMismatchError, compare_replicas, reference
from mirrorguard.testkit.oracle import _global_batches, _strategy

data = reference.oracle_data()
t = clock()
model = reference.build_fit(_strategy(tf, ["/cpu:0", "/cpu:1"]))
model.fit(_global_batches(tf, data, reference.GLOBAL_BATCH, 2), epochs=1, shuffle=False, verbose=0)
figures["baseline"] = since(t)

for name, build, steps in (("oracle (2 steps)", reference.build_fit, 2),
                           ("oracle (6 steps)", reference.build_fit, 6),
                           ("custom loop (2 steps)", reference.build_custom_loop, 2)):
    t = clock()
    try:  # the cost is the figure; over 6 steps rounding noise may pass rtol (see docs/testkit.md)
        compare_replicas(build, data, global_batch_size=reference.GLOBAL_BATCH, steps=steps, strict=True)
    except ReplicaMismatchError:
        pass
    figures[name] = since(t)
print("MG-BENCH " + json.dumps(figures), flush=True)
"""


def one_round(flavour: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="3")
    env["TF_USE_LEGACY_KERAS"] = "1" if flavour == "tfkeras" else "0"
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=1800)
    for line in done.stdout.splitlines():
        if line.startswith(PREFIX):
            return json.loads(line[len(PREFIX) :])
    raise SystemExit(f"the benchmark process failed:\n{done.stderr[-3000:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--flavour", choices=("keras3", "tfkeras"), default="keras3")
    args = parser.parse_args(argv)
    rounds = [one_round(args.flavour) for _ in range(args.rounds)]
    median = {
        name: {kind: statistics.median(r[name][kind] for r in rounds) for kind in ("wall", "cpu")}
        for name in rounds[0]
    }
    print(f"replica oracle on the reference small ResNet, {args.flavour}, median of {args.rounds} round(s)")
    print(f"{'what':<24}{'wall s':>9}{'cpu s':>9}")
    for name, figure in median.items():
        print(f"{name:<24}{figure['wall']:>9.2f}{figure['cpu']:>9.2f}")
    two, six, base = median["oracle (2 steps)"], median["oracle (6 steps)"], median["baseline"]
    per_step = (six["cpu"] - two["cpu"]) / 4
    print(f"one more step (both runs, compared): {per_step:.3f} s cpu")
    print(f"2-step oracle less its steps (building, tracing, copying): {two['cpu'] - 2 * per_step:.2f} s cpu")
    print(f"oracle / baseline (cpu): {two['cpu'] / base['cpu']:.2f}x")
    print(f"TensorFlow's start: {median['start']['cpu']:.2f} s cpu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
