"""Parallel and cross-file cost of ``mirrorguard check``, as ratios measured side by side.

    python benchmarks/bench_parallel.py [--corpus keras tf_keras training-scripts] [--rounds 3]

For each corpus (copied to a temporary folder from installed packages; see
corpora.py) it times, alternating the order every round:
  * ``--jobs 1 --no-cross-file``: one process, each file alone (the baseline),
  * ``--jobs N --no-cross-file``: N processes (N = the machine's cores),
  * ``--jobs 1``: one process with cross-file analysis,
  * ``--jobs N``: the default run.
It reports medians and two ratios: the parallel speed-up (baseline / N
processes) and the cross-file cost (with / without, one process). It also
checks that every variant prints the same findings for ``--no-cross-file``
runs and that cross-file runs only add findings. Machines are shared and
noisy: read the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora  # noqa: E402

from mirrorguard.checker.runner import default_jobs  # noqa: E402


def variants(root: Path, jobs: int) -> dict[str, list[str]]:
    base = [sys.executable, "-m", "mirrorguard.cli", "check", "--quiet", str(root)]
    return {
        "jobs=1 per-file": base + ["--jobs", "1", "--no-cross-file"],
        f"jobs={jobs} per-file": base + ["--jobs", str(jobs), "--no-cross-file"],
        "jobs=1 cross-file": base + ["--jobs", "1"],
        f"jobs={jobs} cross-file": base + ["--jobs", str(jobs)],
    }


def measure(corpus: str, rounds: int, jobs: int) -> dict:
    root = corpora.assemble(corpus)
    try:
        files = len(corpora.python_files(root))
        commands = variants(root, jobs)
        times: dict[str, list[float]] = {name: [] for name in commands}
        outputs: dict[str, str] = {}
        names = list(commands)
        for round_ in range(rounds):
            order = names if round_ % 2 == 0 else list(reversed(names))
            for name in order:
                start = time.perf_counter()
                result = subprocess.run(commands[name], capture_output=True, text=True)
                times[name].append(time.perf_counter() - start)
                if result.returncode not in (0, 1):
                    raise SystemExit(f"{name} failed: {result.stderr[-2000:]}")
                outputs.setdefault(name, result.stdout)
        median = {name: statistics.median(values) for name, values in times.items()}
        per_file = [outputs[n] for n in names if n.endswith("per-file")]
        cross = [outputs[n] for n in names if n.endswith("cross-file")]
        return {
            "corpus": corpus,
            "files": files,
            "jobs": jobs,
            "rounds": rounds,
            "median_seconds": {name: round(value, 3) for name, value in median.items()},
            "parallel_speedup_per_file": round(median["jobs=1 per-file"] / median[f"jobs={jobs} per-file"], 2),
            "parallel_speedup_cross_file": round(median["jobs=1 cross-file"] / median[f"jobs={jobs} cross-file"], 2),
            "cross_file_cost_jobs1": round(median["jobs=1 cross-file"] / median["jobs=1 per-file"], 3),
            f"cross_file_cost_jobs{jobs}": round(median[f"jobs={jobs} cross-file"] / median[f"jobs={jobs} per-file"], 3),
            "same_output_whatever_jobs": len(set(per_file)) == 1 and len(set(cross)) == 1,
            "cross_file_only_adds": set(per_file[0].splitlines()) <= set(cross[0].splitlines()),
            "findings_per_file_vs_cross_file": [per_file[0].count("\n"), cross[0].count("\n")],
        }
    finally:
        corpora.remove(root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", nargs="+", default=["keras", "training-scripts"],
                        choices=sorted(corpora.PACKAGES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    args = parser.parse_args(argv)
    for corpus in args.corpus:
        print(json.dumps(measure(corpus, args.rounds, args.jobs), indent=2), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
