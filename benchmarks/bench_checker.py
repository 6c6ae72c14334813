"""Checker cost as pre-commit installs it, as ratios against flake8 measured side by side in one run.

    MIRRORGUARD_KERAS_IO=/path/to/keras-io/examples \\
    python benchmarks/bench_checker.py [--venv DIR] [--corpus keras-io training-scripts one-file] [--rounds 5]

First it installs this tree into a virtual environment as pre-commit would
(benchmarks/installed.py: a wheel, not editable, its dependencies from the
index, bytecode compiled, no TensorFlow); ``--venv`` keeps that environment
for the next run. Then for each corpus (benchmarks/corpora.py) it runs, with
that environment's python, interleaved and in a rotated order every round:
  * flake8 alone (mirrorguard filtered out of flake8's plugin discovery),
  * flake8 with the mirrorguard plugin,
  * ``mirrorguard check`` (one process).
flake8 runs with ``-j 1`` and check with ``--jobs 1`` on folders, so the ratios
compare work, not parallelism; the one file runs as pre-commit runs it
(``flake8 FILE``, ``mirrorguard check FILE``). It reports, per command, the
median CPU seconds of the child process (user + system: on a shared machine
wall time mostly measures the neighbours) and the median wall seconds, and the
ratios to flake8 alone. On a loaded machine two whole runs differ by several per
cent whatever they do, so it also clocks the plugin from inside flake8
(benchmarks/_plugin_clock: CPU seconds in its import, options and every
``run()``, over the rest of the same process), which is the steadier figure for
the folders; for one file, imports the plugin happens to load first are charged
to it there, so the side-by-side difference is the figure. Targets (issue 16):

  corpus               plugin / flake8    check / flake8
  keras-io examples    <= 1.02            <= 0.03
  training scripts     <= 1.10            <= 0.25
  one 37-line script   <= +0.03 s         <= 0.7
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora  # noqa: E402
import installed  # noqa: E402

HERE = Path(__file__).resolve().parent
TARGETS = {  # corpus: (plugin / flake8, check / flake8); the one file's plugin target is seconds added
    "keras-io": (1.02, 0.03),
    "training-scripts": (1.10, 0.25),
    "one-file": (0.03, 0.7),
}


def commands(python: Path, root: Path, one_file: bool) -> dict[str, list[str]]:
    target = [str(path) for path in corpora.python_files(root)] if one_file else [str(root)]
    flake8_jobs = [] if one_file else ["-j", "1"]
    check_jobs = [] if one_file else ["--jobs", "1"]
    return {
        "flake8": [str(python), str(HERE / "_flake8_without_mirrorguard.py"), *flake8_jobs, *target],
        "flake8+mirrorguard": [str(python), "-m", "flake8", *flake8_jobs, *target],
        "mirrorguard check": [str(python), "-m", "mirrorguard", "check", "--quiet", *check_jobs, *target],
    }


def time_once(command: list[str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds of the child, user + system; wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=installed.clean_env(), cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def plugin_share(python: Path, command: list[str], root: Path) -> tuple[float, float]:
    """(CPU seconds inside the plugin, CPU seconds of the whole flake8 process) for one run,
    clocked from within by benchmarks/_plugin_clock (flake8 -j 1 runs in one process)."""
    with tempfile.NamedTemporaryFile(prefix="mirrorguard-clock-", delete=False) as handle:
        clock = handle.name
    try:
        env = {**installed.clean_env(), "PYTHONPATH": str(HERE / "_plugin_clock"), "MIRRORGUARD_PLUGIN_CLOCK": clock}
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env, cwd=root)
        plugin, process = (float(value) for value in Path(clock).read_text().split())
        return plugin, process
    finally:
        os.unlink(clock)


def measure(python: Path, name: str, rounds: int, limit: int | None) -> dict:
    root = corpora.assemble(name, limit)
    try:
        files = corpora.python_files(root)
        lines = sum(Path(f).read_bytes().count(b"\n") for f in files)
        runs = commands(python, root, one_file=name.startswith("one-"))
        for command in runs.values():  # warm the file cache and the bytecode; not timed
            time_once(command, root)
        cpu: dict[str, list[float]] = {label: [] for label in runs}
        wall: dict[str, list[float]] = {label: [] for label in runs}
        order = list(runs)
        for number in range(rounds):
            shift = number % len(order)
            for label in order[shift:] + order[:shift]:
                seconds, elapsed = time_once(runs[label], root)
                cpu[label].append(seconds)
                wall[label].append(elapsed)
        shares = [plugin_share(python, runs["flake8+mirrorguard"], root) for _ in range(rounds)]
        inside = statistics.median(plugin / (process - plugin) for plugin, process in shares)
        median_cpu = {label: statistics.median(values) for label, values in cpu.items()}
        median_wall = {label: statistics.median(values) for label, values in wall.items()}
        base_cpu, base_wall = median_cpu["flake8"], median_wall["flake8"]
        # The fastest run of each: the one the neighbours disturbed least (a second view, not the figure).
        fastest = {label: min(values) for label, values in cpu.items()}
        return {
            "corpus": name,
            "files": len(files),
            "lines": lines,
            "rounds": rounds,
            "cpu_seconds": {k: round(v, 4) for k, v in median_cpu.items()},
            "wall_seconds": {k: round(v, 4) for k, v in median_wall.items()},
            "plugin_vs_flake8_cpu": round(median_cpu["flake8+mirrorguard"] / base_cpu, 4),
            "plugin_vs_flake8_wall": round(median_wall["flake8+mirrorguard"] / base_wall, 4),
            "plugin_adds_cpu_seconds": round(median_cpu["flake8+mirrorguard"] - base_cpu, 4),
            # Clocked inside flake8: the plugin's CPU seconds over the rest of the process.
            "plugin_inside_vs_rest": round(1 + inside, 4),
            "plugin_inside_seconds": round(statistics.median(plugin for plugin, _ in shares), 4),
            "plugin_adds_wall_seconds": round(median_wall["flake8+mirrorguard"] - base_wall, 4),
            "check_vs_flake8_cpu": round(median_cpu["mirrorguard check"] / base_cpu, 4),
            "check_vs_flake8_wall": round(median_wall["mirrorguard check"] / base_wall, 4),
            "fastest_cpu_seconds": {k: round(v, 4) for k, v in fastest.items()},
        }
    finally:
        corpora.remove(root)


def table(results: list[dict]) -> str:
    rows = ["| corpus | files / lines | flake8 CPU s | plugin / flake8 (CPU, wall) | plugin clocked inside flake8 "
            "| target | check / flake8 (CPU, wall) | target |",
            "|---|---|---|---|---|---|---|---|"]
    for r in results:
        plugin_target, check_target = TARGETS.get(r["corpus"], (None, None))
        if r["corpus"].startswith("one-"):
            plugin = f"{r['plugin_adds_cpu_seconds']:+.3f} s, {r['plugin_adds_wall_seconds']:+.3f} s"
            inside = f"+{r['plugin_inside_seconds']:.3f} s"
            plugin_goal = f"+{plugin_target} s" if plugin_target else ""
        else:
            plugin = f"{r['plugin_vs_flake8_cpu']:.3f}x, {r['plugin_vs_flake8_wall']:.3f}x"
            inside = f"{r['plugin_inside_vs_rest']:.3f}x"
            plugin_goal = f"<= {plugin_target}x" if plugin_target else ""
        check = f"{r['check_vs_flake8_cpu']:.3f}x, {r['check_vs_flake8_wall']:.3f}x"
        check_goal = f"<= {check_target}x" if check_target else ""
        rows.append(f"| {r['corpus']} | {r['files']} / {r['lines']} | {r['cpu_seconds']['flake8']:.3f} "
                    f"| {plugin} | {inside} | {plugin_goal} | {check} | {check_goal} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", nargs="+", default=["keras-io", "training-scripts", "one-file"],
                        choices=sorted(corpora.PACKAGES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="at most this many files per corpus")
    parser.add_argument("--venv", type=Path, default=None,
                        help="keep the environment here and reuse it (default: a temporary one)")
    parser.add_argument("--tree", type=Path, default=installed.REPO,
                        help="the source tree to install and measure (default: this checkout; e.g. a "
                             "`git archive` of an older commit, for a before/after)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mirrorguard-bench-venv-") as scratch:
        folder = args.venv if args.venv is not None else Path(scratch) / "venv"
        python = installed.ensure(folder, args.tree)
        results = [measure(python, name, args.rounds, args.limit) for name in args.corpus]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(f"{r['corpus']}: {r['files']} files, {r['lines']} lines, median of {r['rounds']} rounds")
        for label in r["cpu_seconds"]:
            print(f"  {label:<20} {r['cpu_seconds'][label]:8.3f} s CPU {r['wall_seconds'][label]:8.3f} s wall "
                  f"(fastest {r['fastest_cpu_seconds'][label]:.3f} s CPU)")
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
