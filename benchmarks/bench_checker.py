"""Checker cost, as ratios against flake8 measured side by side in one run.

    python benchmarks/bench_checker.py [--corpus keras tf_keras training-scripts] [--rounds 3]

For each corpus it times (CPU seconds of the process, user + system: the
machines are shared, and wall time mostly measures the neighbours), alternating
the order every round:
  * flake8 alone (mirrorguard filtered out of flake8's plugin discovery),
  * flake8 with the mirrorguard plugin,
  * ``mirrorguard check`` (one process).
All on one core (``-j 1``), so the ratios compare work, not parallelism. It
reports the median of each and two ratios: the plugin's overhead on flake8 and
mirrorguard check against flake8 alone. Targets (issue 13): a typical ML
repository (most files without a strategy) plugin/flake8 <= 1.02 and
check/flake8 <= 0.10; code full of distribution (tf-keras) <= 1.05 and <= 0.15;
a repository of training scripts (the corpus) <= 1.15 and <= 0.5.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora  # noqa: E402

HERE = Path(__file__).resolve().parent
# As an installed tool runs: with its bytecode cached (some sandboxes set
# PYTHONDONTWRITEBYTECODE, which makes every run recompile every module).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def commands(root: Path) -> dict[str, list[str]]:
    python = sys.executable
    return {
        "flake8": [python, str(HERE / "_flake8_without_mirrorguard.py"), "-j", "1", str(root)],
        "flake8+mirrorguard": [python, "-m", "flake8", "-j", "1", str(root)],
        "mirrorguard check": [python, "-m", "mirrorguard.cli", "check", "--quiet", str(root)]
        + (["--jobs", "1"] if _has_jobs_flag() else []),
    }


def _has_jobs_flag() -> bool:
    help_text = subprocess.run(
        [sys.executable, "-m", "mirrorguard.cli", "check", "--help"], capture_output=True, text=True
    ).stdout
    return "--jobs" in help_text


def time_once(command: list[str]) -> float:
    """CPU seconds (user + system) the command's process spent: on a shared,
    loaded machine this moves far less than wall time, which waits for the CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def plugin_work(files: list[str]) -> float:
    """CPU seconds the flake8 plugin itself spends on ``files``, in this process: what it
    adds to flake8 without the other processes' noise (flake8's own parse is not counted,
    the plugin reuses its tree)."""
    import ast

    from flake8_mirrorguard import Plugin
    from mirrorguard.checker.config import Config
    from mirrorguard.checker.resolver import SettingsResolver

    Plugin.resolver = SettingsResolver(Config(), respect_noqa=False)
    inputs = []
    for path in files:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        try:
            inputs.append((path, text.splitlines(True), ast.parse(text)))
        except (SyntaxError, ValueError, RecursionError):
            continue
    start = time.process_time()
    for path, lines, tree in inputs:
        list(Plugin(tree, lines, path).run())
    return time.process_time() - start


def measure(name: str, rounds: int, limit: int | None) -> dict:
    root = corpora.assemble(name, limit)
    try:
        files = corpora.python_files(root)
        lines = sum(Path(f).read_bytes().count(b"\n") for f in files)
        runs = commands(root)
        times: dict[str, list[float]] = {label: [] for label in runs}
        order = list(runs)
        for round_number in range(rounds):
            for label in order if round_number % 2 == 0 else reversed(order):
                times[label].append(time_once(runs[label]))
        median = {label: statistics.median(values) for label, values in times.items()}
        in_process = min(plugin_work(files) for _ in range(3))
        fastest = {label: min(values) for label, values in times.items()}
        return {
            "corpus": name,
            "files": len(files),
            "lines": lines,
            "rounds": rounds,
            "median_seconds": {k: round(v, 3) for k, v in median.items()},
            "plugin_overhead": round(median["flake8+mirrorguard"] / median["flake8"] - 1, 4),
            "plugin_work_seconds": round(in_process, 3),
            "plugin_work_vs_flake8": round(in_process / median["flake8"], 4),
            "check_vs_flake8": round(median["mirrorguard check"] / median["flake8"], 4),
            # Minimums: on a shared machine the fastest run is the one least disturbed.
            "plugin_overhead_min": round(fastest["flake8+mirrorguard"] / fastest["flake8"] - 1, 4),
            "check_vs_flake8_min": round(fastest["mirrorguard check"] / fastest["flake8"], 4),
        }
    finally:
        corpora.remove(root)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", nargs="+", default=["tf_keras", "keras", "training-scripts"],
                        choices=sorted(corpora.PACKAGES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=None, help="at most this many files per corpus")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    results = [measure(name, args.rounds, args.limit) for name in args.corpus]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        m = r["median_seconds"]
        print(f"{r['corpus']}: {r['files']} files, {r['lines']} lines, median of {r['rounds']} rounds")
        for label, seconds in m.items():
            print(f"  {label:<20} {seconds:8.2f} s CPU")
        print(f"  plugin overhead on flake8:        {r['plugin_overhead']:+.1%} median, "
              f"{r['plugin_overhead_min']:+.1%} fastest runs")
        print(f"  the plugin's own work, in process: {r['plugin_work_seconds']:.2f} s CPU = "
              f"{r['plugin_work_vs_flake8']:+.1%} of flake8 alone (steadier than the difference above)")
        print(f"  mirrorguard check / flake8 alone: {r['check_vs_flake8']:.2f} median, "
              f"{r['check_vs_flake8_min']:.2f} fastest runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
