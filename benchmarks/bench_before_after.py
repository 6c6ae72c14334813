"""One file as pre-commit runs it, two installs of mirrorguard interleaved: a before/after.

    python benchmarks/bench_before_after.py BEFORE_VENV AFTER_VENV FILE [--rounds 21]

Both environments are made by ``bench_checker.py --venv DIR [--tree DIR]`` (installed.py). Each
round runs, in a rotated order: flake8 alone (in AFTER_VENV, the plugin filtered out), flake8 with
the plugin of each install, and ``mirrorguard check`` of each. Prints the median and the fastest
CPU seconds of each, and their difference and ratio to flake8 alone. Interleaving the two installs
in one run is what makes a 0.01 s difference readable on a shared machine; two separate runs of
bench_checker.py minutes apart differ by more than that.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import installed  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("file", type=Path)
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args(argv)
    before, after = installed.python_of(args.before), installed.python_of(args.after)
    target = str(args.file.resolve())
    runs = {
        "flake8": [str(after), str(HERE / "_flake8_without_mirrorguard.py"), target],
        "plugin-before": [str(before), "-m", "flake8", target],
        "plugin-after": [str(after), "-m", "flake8", target],
        "check-before": [str(before), "-m", "mirrorguard", "check", "--quiet", target],
        "check-after": [str(after), "-m", "mirrorguard", "check", "--quiet", target],
    }
    times: dict[str, list[float]] = {label: [] for label in runs}
    for number in range(args.rounds):
        order = list(runs)
        shift = number % len(order)
        for label in order[shift:] + order[:shift]:
            start = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(runs[label], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                           env=installed.clean_env(), cwd=args.file.resolve().parent)
            end = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[label].append(end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime)
    median = {label: statistics.median(values) for label, values in times.items()}
    fastest = {label: min(values) for label, values in times.items()}
    for label in runs:
        print(f"{label:<14} median {median[label]:.3f} s, fastest {fastest[label]:.3f} s CPU; vs flake8 alone: "
              f"{median[label] - median['flake8']:+.3f} s / {fastest[label] - fastest['flake8']:+.3f} s, "
              f"{median[label] / median['flake8']:.3f}x / {fastest[label] / fastest['flake8']:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
