"""Run the corpus for real and set the runtime's verdict beside the static checker's.

    PYTHONPATH=$PWD python tests/corpus_runtime/harness.py [--write] [FILE...]

Every ``tests/corpus/{buggy,clean}/*.py`` is tried (nothing here lists which can run:
a script runs or it gets a reason). Scripts run in groups, two processes at a time, in
_runner.py, first with Keras 3; a script that fails there for a reason that is not a
scope mistake (a tf-keras-only API, say) is tried once more with tf-keras
(``TF_USE_LEGACY_KERAS=1``), and the verdict says which flavour gave it.

Verdicts of the runtime:

* ``guard``: mirrorguard's guard stopped fit() (NotMirroredError);
* ``tf-scope``: TensorFlow or Keras itself refused an object made outside the scope;
* ``clean``: the script ran to its end on a strategy of 2 or more replicas;
* ``batch``: AssertEvenBatchSplit stopped fit() (not a scope finding, counted apart);
* anything else is a reason the script cannot be judged here (an exception that says
  nothing about scopes, a time-out, no strategy over 2 replicas, a crash).

The static verdict is whether ``check_file`` reports any of MG101-MG105 for the file.
``--write`` refreshes the generated table in RESULTS.md beside this file.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = REPO / "tests" / "corpus"
RUNNER = HERE / "_runner.py"
PREFIX, START = "MG-CORPUS ", "MG-CORPUS-START "

SCOPE_CODES = frozenset({"MG101", "MG102", "MG103", "MG104", "MG105"})
RUNTIME_SCOPE = frozenset({"guard", "tf-scope"})
JUDGED = RUNTIME_SCOPE | {"clean"}

# What TensorFlow and Keras say when an object was made outside the strategy's scope
# (../shared/FACTS.md, measured on TF 2.21, Keras 3.15, tf-keras 2.21).
SCOPE_MESSAGES = (
    'Need to be inside "with strategy.scope()"',
    "Mixing different tf.distribute.Strategy objects",
    "was not created in the distribution strategy scope",
    "colocate_vars_with` must only be passed a variable created in this",
    "colocate_vars_with must only be passed a variable created in this",
)

PROGRESS = False  # harness.py's main() prints a line per script as it ends
GROUP = 12  # scripts per process: TensorFlow's start-up (seconds) is paid once per group
# CPU seconds a script may use (its process's CPU time, so a loaded machine does not turn a
# runnable script into a time-out); a script that runs "in seconds" needs far less.
PER_SCRIPT_TIMEOUT = 60.0
WALL_PER_SCRIPT = 600.0  # the backstop for a process that hangs outside Python, per script


def corpus_scripts(root: Path = CORPUS) -> list[Path]:
    return sorted(root.glob("buggy/*.py")) + sorted(root.glob("clean/*.py"))


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


@dataclass
class Run:
    file: str
    flavour: str
    verdict: str  # guard, tf-scope, clean, batch, or "cannot: <reason>"
    detail: str = ""
    seconds: float = 0.0
    fits: int = 0
    tries: list = field(default_factory=list)


def classify(raw: dict) -> tuple[str, str]:
    """(verdict, detail) from what _runner.py observed for one script."""
    exception, message = raw.get("exception"), raw.get("message") or ""
    first_line = message.strip().splitlines()[0][:160] if message.strip() else ""
    if exception == "NotMirroredError":
        return "guard", first_line
    if exception in ("UnevenBatchError",):
        return "batch", first_line
    if exception is not None and any(text in message for text in SCOPE_MESSAGES):
        return "tf-scope", f"{exception}: {first_line}"
    if exception is not None:
        return "cannot", f"{exception}: {first_line}"
    if not any(n >= 2 for n in raw.get("replicas", [])):
        made = ", ".join(f"{s}({n})" for s, n in zip(raw.get("strategies", []), raw.get("replicas", []))) or "none"
        return "cannot", f"ran, but no strategy over 2 replicas (strategies made: {made})"
    return "clean", f"{raw.get('fits_done', 0)} guarded fit(s)"


def _env(flavour: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), TF_CPP_MIN_LOG_LEVEL="2", PYTHONHASHSEED="0",
               CUDA_VISIBLE_DEVICES="")
    env.pop("TF_CONFIG", None)
    env["TF_USE_LEGACY_KERAS"] = "1" if flavour == "tfkeras" else "0"
    return env


def _read_process(command: list[str], flavour: str) -> tuple[list[str], str]:
    """The process's protocol lines; killed when one script outlives WALL_PER_SCRIPT seconds."""
    process = subprocess.Popen(command, env=_env(flavour), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout] + [lines.put(None)],
                     daemon=True).start()
    protocol: list[str] = []
    tail: collections.deque = collections.deque(maxlen=30)
    deadline = time.monotonic() + WALL_PER_SCRIPT + 120  # TensorFlow's start-up comes first
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            process.kill()
            tail.append(f"process killed: a script ran over {WALL_PER_SCRIPT:.0f} s of wall-clock time")
            break
        if line is None:
            break
        if line.startswith((START, PREFIX)):
            protocol.append(line)
            deadline = time.monotonic() + WALL_PER_SCRIPT
            if PROGRESS and line.startswith(PREFIX):
                raw = json.loads(line[len(PREFIX):])
                print(f"[corpus {flavour}] {name_of(Path(raw['file']))}: {' '.join(classify(raw))[:150]} "
                      f"({raw.get('seconds', 0):.1f} s, {raw.get('cpu_seconds', 0):.1f} CPU s)", file=sys.stderr, flush=True)
        else:
            tail.append(line.rstrip())
    process.wait()
    return protocol, "\n".join(tail)[-1500:]


def _run_group(files: list[str], flavour: str, replicas: int, timeout: float) -> dict[str, dict]:
    """Results of every file; a file that crashed or hung its process gets a reason, the rest rerun."""
    results: dict[str, dict] = {}
    pending = list(files)
    while pending:
        command = [sys.executable, str(RUNNER), "--replicas", str(replicas), "--timeout", str(timeout), *pending]
        protocol, tail = _read_process(command, flavour)
        started: list[str] = []
        for line in protocol:
            if line.startswith(START):
                started.append(json.loads(line[len(START):]))
            else:
                raw = json.loads(line[len(PREFIX):])
                results[raw["file"]] = raw
        rest = [f for f in pending if str(Path(f).resolve()) not in results]
        if rest:
            if not (started and started[-1] == rest[0]):
                # The process died before its first script: report all, do not loop.
                for f in rest:
                    results[str(Path(f).resolve())] = {"exception": "ProcessFailed", "message": tail}
                break
            results[str(Path(rest[0]).resolve())] = {"exception": "ProcessCrashed", "message": tail}
            rest = rest[1:]
        pending = rest  # each pass finishes a script or names the one that killed it
    return results


def run_scripts(paths: list[Path], flavour: str, replicas: int = 2, workers: int = 2,
                timeout: float = PER_SCRIPT_TIMEOUT) -> dict[str, dict]:
    files = [str(p) for p in paths]
    groups = [files[i:i + GROUP] for i in range(0, len(files), GROUP)]
    results: dict[str, dict] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(lambda g: _run_group(g, flavour, replicas, timeout), groups):
            results.update(part)
    return results


def run_corpus(paths: list[Path] | None = None, replicas: int = 2, workers: int = 2) -> dict[str, Run]:
    """Every script's runtime verdict: Keras 3 first, tf-keras for what Keras 3 could not run."""
    paths = corpus_scripts() if paths is None else paths
    runs: dict[str, Run] = {}
    retry: list[Path] = []
    keras3 = run_scripts(paths, "keras3", replicas, workers)
    for path in paths:
        raw = keras3[str(path.resolve())]
        verdict, detail = classify(raw)
        run = Run(name_of(path), "keras3", verdict, detail, raw.get("seconds", 0.0), raw.get("fits_done", 0),
                  [f"keras3: {verdict}: {detail}"])
        runs[run.file] = run
        if verdict == "cannot":
            retry.append(path)
    if retry:
        tfkeras = run_scripts(retry, "tfkeras", replicas, workers)
        for path in retry:
            raw = tfkeras[str(path.resolve())]
            verdict, detail = classify(raw)
            run = runs[name_of(path)]
            run.tries.append(f"tfkeras: {verdict}: {detail}")
            if verdict != "cannot":
                run.flavour, run.verdict, run.detail = "tfkeras", verdict, detail
                run.seconds, run.fits = raw.get("seconds", 0.0), raw.get("fits_done", 0)
    return runs


def static_scope_codes(path: Path) -> set[str]:
    from mirrorguard.checker import check_file

    return {finding.code for finding in check_file(str(path))} & SCOPE_CODES


def known_disagreements(readme: Path = HERE / "README.md") -> dict[str, str]:
    """file -> why, from the table of README.md's "Disagreements" section."""
    text = readme.read_text(encoding="utf-8")
    section = text.split("## Disagreements", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and re.fullmatch(r"`?(buggy|clean)/[\w.]+\.py`?", cells[0]):
            rows[cells[0].strip("`")] = cells[-1]
    return rows


@dataclass
class Comparison:
    runs: dict
    static: dict  # file -> set of scope codes
    judged: list = field(default_factory=list)
    agree: list = field(default_factory=list)
    disagree: list = field(default_factory=list)
    batch: list = field(default_factory=list)
    cannot: list = field(default_factory=list)


def compare(runs: dict[str, Run], paths: list[Path]) -> Comparison:
    static = {name_of(p): static_scope_codes(p) for p in paths}
    result = Comparison(runs, static)
    for name, run in runs.items():
        if run.verdict in JUDGED:
            result.judged.append(name)
            (result.agree if bool(static[name]) == (run.verdict in RUNTIME_SCOPE) else result.disagree).append(name)
        elif run.verdict == "batch":
            result.batch.append(name)
        else:
            result.cannot.append(name)
    return result


def table(comparison: Comparison) -> str:
    lines = ["| file | static (MG101-MG105) | runtime | flavour | agree | detail |", "|---|---|---|---|---|---|"]
    for name, run in sorted(comparison.runs.items()):
        static = ", ".join(sorted(comparison.static[name])) or "clean"
        agree = {True: "yes", False: "**no**"}.get(name in comparison.agree) if name in comparison.judged else "-"
        detail = run.detail.replace("|", "\\|").replace("\n", " ")
        if run.verdict == "cannot" and len(run.tries) > 1:
            detail = " / ".join(t.replace("|", "\\|") for t in run.tries)
        lines.append(f"| {name} | {static} | {run.verdict} | {run.flavour} | {agree} | {detail} |")
    return "\n".join(lines)


def summary(comparison: Comparison) -> str:
    runs = comparison.runs
    by_flavour = {f: sum(1 for n in comparison.judged if runs[n].flavour == f) for f in ("keras3", "tfkeras")}
    buggy = sum(1 for n in comparison.judged if n.startswith("buggy/"))
    return (f"{len(runs)} scripts tried; {len(comparison.judged)} judged by the runtime "
            f"({buggy} buggy, {len(comparison.judged) - buggy} clean; keras3 {by_flavour['keras3']}, "
            f"tfkeras {by_flavour['tfkeras']}); agree {len(comparison.agree)}, disagree {len(comparison.disagree)}; "
            f"batch guard {len(comparison.batch)}; cannot run here {len(comparison.cannot)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="refresh RESULTS.md")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    global PROGRESS
    PROGRESS = True
    paths = [Path(f).resolve() for f in args.files] or corpus_scripts()
    began = time.monotonic()
    runs = run_corpus(paths)
    comparison = compare(runs, paths)
    took = time.monotonic() - began
    text = table(comparison)
    print(text)
    print(summary(comparison) + f"; {took:.0f} s")
    if args.write:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        import tensorflow as tf  # noqa: PLC0415  (only to name the version in the table)

        (HERE / "RESULTS.md").write_text(
            "# Corpus run for real (generated by harness.py --write)\n\n"
            f"Commit {commit}, TensorFlow {tf.__version__}, 2 logical CPU replicas, {took:.0f} s.\n\n"
            f"{summary(comparison)}.\n\n{text}\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
