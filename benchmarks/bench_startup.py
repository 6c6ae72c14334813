"""What pre-commit pays on a few files, the checker's cost per 1,000 lines, and its memory.

    python benchmarks/bench_startup.py [--rounds 15]

1. One ~40-line training script, process CPU time, alternating every round:
   flake8 alone (mirrorguard filtered out), flake8 with the plugin, and
   ``mirrorguard check``. Reports medians and the differences (targets: the
   plugin adds at most 0.03 s; ``check`` no slower than flake8 alone).
2. ``check_source`` time per 1,000 lines of strategy code: every file of the
   hand-labelled corpus, in this process, against ``ast.parse`` of the same text.
3. Peak memory of ``mirrorguard check`` on one generated 40,000-line training
   file (``ru_maxrss`` of the child), against a child that only parses it.
Machines are shared and noisy: read the ratios and differences, not the seconds.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# As an installed tool runs: with its bytecode cached (some sandboxes set
# PYTHONDONTWRITEBYTECODE, which makes every run recompile every module).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ROOT = HERE.parent
CORPUS = ROOT / "tests" / "corpus"
SCRIPT = CORPUS / "buggy" / "mg102_compile_after_scope.py"


def wall(command: list[str]) -> float:
    """CPU seconds (user + system) of the command's process: steadier than wall
    time on a shared machine, and what start-up really costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup(rounds: int) -> dict[str, float]:
    python = sys.executable
    runs = {
        "flake8": [python, str(HERE / "_flake8_without_mirrorguard.py"), str(SCRIPT)],
        "flake8+mirrorguard": [python, "-m", "flake8", str(SCRIPT)],
        "mirrorguard check": [python, "-m", "mirrorguard.cli", "check", "--quiet", str(SCRIPT)],
    }
    times: dict[str, list[float]] = {label: [] for label in runs}
    order = list(runs)
    for number in range(rounds):
        for label in order if number % 2 == 0 else reversed(order):
            times[label].append(wall(runs[label]))
    return {label: statistics.median(values) for label, values in times.items()}


def per_thousand_lines(rounds: int) -> tuple[float, float, int]:
    from mirrorguard.checker import check_source

    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*/*.py"))]
    lines = sum(t.count("\n") for t in texts)
    checks, parses = [], []
    for _ in range(rounds):
        start = time.process_time()
        for text in texts:
            check_source(text)
        checks.append(time.process_time() - start)
        start = time.process_time()
        for text in texts:
            ast.parse(text)
        parses.append(time.process_time() - start)
    scale = 1000 / lines
    return statistics.median(checks) * scale, statistics.median(parses) * scale, lines


def big_file(path: Path, lines: int = 40_000) -> None:
    block = (CORPUS / "buggy" / "mg201_custom_loop_constant_global_batch.py").read_text(encoding="utf-8")
    parts = []
    count = 0
    index = 0
    while count < lines:
        # Each copy's functions renamed, so the file is one long program, not one definition redefined.
        parts.append(block.replace("def ", f"def v{index}_"))
        count += block.count("\n")
        index += 1
    path.write_text("\n".join(parts), encoding="utf-8")


def peak_memory(path: Path) -> tuple[float, float, float]:
    """(MiB for check, MiB for a bare parse, seconds for check) in fresh children."""
    def child(code: str) -> tuple[float, float]:
        seconds = wall([sys.executable, "-c", code])
        return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, seconds

    parse_mib, _ = child(f"import ast; ast.parse(open({str(path)!r}).read())")
    check_mib, seconds = child(
        "from mirrorguard.checker import check_file; "
        f"print(len(check_file({str(path)!r})))"
    )
    return check_mib, parse_mib, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)

    median = startup(args.rounds)
    print(f"one {SCRIPT.read_text().count(chr(10))}-line training script, median of {args.rounds} rounds:")
    for label, seconds in median.items():
        print(f"  {label:<20} {seconds:6.3f} s CPU")
    print(f"  plugin adds {median['flake8+mirrorguard'] - median['flake8']:+.3f} s to flake8 (target <= +0.03 s)")
    print(f"  mirrorguard check - flake8 alone: {median['mirrorguard check'] - median['flake8']:+.3f} s (target <= 0)")

    check, parse, lines = per_thousand_lines(max(3, args.rounds // 3))
    print(f"check_source per 1,000 lines of strategy code ({lines} lines, the corpus): "
          f"{check * 1000:.1f} ms; ast.parse alone {parse * 1000:.1f} ms ({check / parse:.1f}x)")

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big_train.py"
        big_file(path)
        # ru_maxrss of children is the largest child so far: measure the parse first.
        check_mib, parse_mib, seconds = peak_memory(path)
        print(f"40,000-line file: peak memory {check_mib:.0f} MiB for check ({seconds:.1f} s), "
              f"{parse_mib:.0f} MiB for a bare ast.parse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
