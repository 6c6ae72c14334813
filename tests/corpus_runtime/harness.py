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
import ast
import collections
import concurrent.futures
import importlib.util
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = REPO / "tests" / "corpus"
RUNNER = HERE / "_runner.py"
PREFIX, START, STOPPED = "MG-CORPUS ", "MG-CORPUS-START ", "MG-CORPUS-STOPPED "

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
    # Keras 3: an optimizer made outside the scope applied to the scope's variables in a plain
    # tf.function (round 5, kubeflow/examples; measured on 2 CPU replicas).
    "indices must be integers or slices, not MirroredVariable",
)

FIXED_FOLDER_PREFIX = "mg-corpus-fixed-"
PROGRESS = False  # harness.py's main() prints a line per script as it ends
GROUP = 70  # scripts per process at most: TensorFlow's start-up (about 7 CPU s) is paid once per group
# CPU seconds a script may use (its process's CPU time, so a loaded machine does not turn a
# runnable script into a time-out); a script that runs "in seconds" needs far less (the
# judged runs of a whole-corpus run: see README.md). One that runs out of it is not tried
# again with tf-keras: it does not run in seconds.
PER_SCRIPT_TIMEOUT = 12.0
# The backstop for a process that hangs outside Python (a collective waiting for workers that
# never come), per script: 15 times the CPU budget, so a loaded machine still finishes in time.
WALL_PER_SCRIPT = 180.0


def corpus_scripts(root: Path = CORPUS) -> list[Path]:
    return sorted(root.glob("buggy/*.py")) + sorted(root.glob("clean/*.py"))


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _guarded_by_import_error(handlers) -> bool:
    names = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
    for handler in handlers:
        kinds = handler.type
        if kinds is None:
            return True
        for kind in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]):
            if isinstance(kind, ast.Name) and kind.id in names:
                return True
    return False


def missing_modules(path: Path) -> list[str]:
    """Top-level packages the script imports unconditionally at module level that are not installed.

    Such a script stops at its first line with ModuleNotFoundError, whatever else it holds, so it
    is not started: the reason is the same, found without TensorFlow's start-up. Imports inside a
    ``try`` that catches ImportError, inside functions or under an ``if`` are left to the run.
    A sibling module of the script (the runner puts its folder first on sys.path) counts as present.
    """
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except SyntaxError:
        return []
    wanted: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            wanted += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            wanted.append(node.module.split(".")[0])
        elif isinstance(node, ast.Try) and not _guarded_by_import_error(node.handlers):
            for inner in node.body:
                if isinstance(inner, ast.Import):
                    wanted += [alias.name.split(".")[0] for alias in inner.names]
                elif isinstance(inner, ast.ImportFrom) and not inner.level and inner.module:
                    wanted.append(inner.module.split(".")[0])
    missing = []
    for name in dict.fromkeys(wanted):
        if (path.parent / f"{name}.py").exists() or (path.parent / name).is_dir():
            continue
        if importlib.util.find_spec(name) is None:
            missing.append(name)
    return missing


@dataclass
class Run:
    file: str
    flavour: str
    verdict: str  # guard, tf-scope, clean, batch, or "cannot: <reason>"
    detail: str = ""
    seconds: float = 0.0
    fits: int = 0
    tries: list = field(default_factory=list)
    cpu: float = 0.0  # CPU seconds the script's runs used in the runner (all flavours tried)
    after_fix: "Run | None" = None  # its copy as `mirrorguard fix` leaves it, run the same way
    fix_changes: bool = False  # `mirrorguard fix` changes the script


def _point(message: str) -> str:
    """The line of an error message that says what went wrong (TensorFlow's graph errors start with
    "Graph execution error:" and a stack of frames; Keras's "in user code:")."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    if lines[0].endswith(":"):
        for line in lines[1:]:  # TensorFlow's own "(0) INVALID_ARGUMENT:  ..." first
            if re.match(r"\(\d+\) [A-Z_]+:", line):
                return f"{lines[0]} {line}"[:240]
        for line in lines[1:]:
            if line.startswith(("File ", "Detected at node", "[[", "return ", "raise ")) or line.endswith(":") or (
                    line == "..."):
                continue
            if re.fullmatch(r"\d+ root error\(s\) found\.|\d+ successful operations\.|\d+ derived errors ignored\.",
                            line):
                continue
            return f"{lines[0]} {line}"[:240]
    return lines[0][:200]


def classify(raw: dict) -> tuple[str, str]:
    """(verdict, detail) from what _runner.py observed for one script."""
    exception, message = raw.get("exception"), raw.get("message") or ""
    first_line = _point(message)
    if exception == "NotMirroredError" and not raw.get("strategies"):
        # The guard on a script that makes no tf.distribute strategy at all: its "several devices,
        # default strategy" check sees this harness's 2 logical CPUs, not a mistake of the script.
        return "cannot", "no tf.distribute strategy made (the guard saw only the harness's 2 CPU devices)"
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
        if line.startswith((START, PREFIX, STOPPED)):
            protocol.append(line)
            if CACHE is not None and line.startswith(PREFIX):
                raw = json.loads(line[len(PREFIX):])
                if "skipped" not in raw:
                    CACHE.add(flavour, raw)
            deadline = time.monotonic() + WALL_PER_SCRIPT
            if PROGRESS and line.startswith(PREFIX) and "skipped" not in (raw := json.loads(line[len(PREFIX):])):
                fixed = " (fixed copy)" if FIXED_FOLDER_PREFIX in raw["file"] else ""
                print(f"[corpus {flavour}] {name_of(Path(raw['file']))}{fixed}: {' '.join(classify(raw))[:150]} "
                      f"({raw.get('seconds', 0):.1f} s, {raw.get('cpu_seconds', 0):.1f} CPU s)", file=sys.stderr, flush=True)
        else:
            tail.append(line.rstrip())
    process.wait()
    return protocol, "\n".join(tail)[-1500:]


# Reasons a script cannot run that are this machine's, not the Keras flavour's: the data or the
# network is not there, the strategy TensorFlow made has one replica here (TPU resolver, no
# TF_CONFIG, no GPUs), or the script needs more than seconds. tf-keras would stop at the same
# line, so it is not tried (a whole-corpus run that retried every script found no exception:
# README.md, "What a run changes").
MACHINE_REASONS = re.compile(
    r"^(Timeout|FileNotFoundError|ran, but no strategy over 2 replicas)"
    r"|^NotFoundError: .*(file not found|No such file)"
    r"|Could not resolve host|libcurl|no synthetic stand-in"
)


def machine_reason(detail: str) -> bool:
    return bool(MACHINE_REASONS.search(detail))


def _entry_files(entry: str) -> list[str]:
    return [str(Path(part).resolve()) for part in entry.split("::")]


def _run_group(entries: list[str], flavour: str, replicas: int, timeout: float) -> dict[str, dict]:
    """Results of every file of the entries (FILE or FILE::FIXED, see _runner.py); a file that
    crashed or hung its process gets a reason, the rest rerun."""
    results: dict[str, dict] = {}
    pending = list(entries)
    while pending:
        command = [sys.executable, str(RUNNER), "--replicas", str(replicas), "--timeout", str(timeout), *pending]
        protocol, tail = _read_process(command, flavour)
        started: list[str] = []
        stopped = False
        for line in protocol:
            if line.startswith(STOPPED):
                stopped = True  # the runner ended the process between scripts: the rest go on in a new one
            elif line.startswith(START):
                started.append(str(Path(json.loads(line[len(START):])).resolve()))
            else:
                raw = json.loads(line[len(PREFIX):])
                results[raw["file"]] = raw
        rest = [e for e in pending if any(f not in results for f in _entry_files(e))]
        if rest and stopped:
            pending = rest
            continue
        if rest:
            files = _entry_files(rest[0])
            if not (started and started[-1] in files):
                # The process died before its first script: report all, do not loop.
                for entry in rest:
                    for f in _entry_files(entry):
                        results[f] = {"exception": "ProcessFailed", "message": tail}
                break
            crashed = started[-1]
            results[crashed] = {"exception": "ProcessCrashed", "message": tail}
            for f in files[files.index(crashed) + 1:]:
                results[f] = {"file": f, "skipped": "the original crashed its process"}
            rest = rest[1:]
        pending = rest  # each pass finishes a script or names the one that killed it
    return results


class Cache:
    """harness.py --cache FILE: every script's raw result, one JSON line each, kept as it arrives.

    A run that is stopped (or a machine too loaded to finish in one sitting) resumes where it
    was: a script is not run again while its text, the flavour, the limits and _runner.py are
    those its line was written with. Only the command line uses it; the test always runs all.
    """

    def __init__(self, path: Path, replicas: int, timeout: float):
        import hashlib

        self._hash = lambda text: hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]
        self.path = path
        self.setting = self._hash(f"{RUNNER.read_text(encoding='utf-8')}|{replicas}|{timeout}")
        self.lock = threading.Lock()
        self.known: dict[tuple[str, str], dict] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                item = json.loads(line)
                if item["setting"] == self.setting:
                    self.known[(item["flavour"], item["text"])] = item["raw"]

    def key(self, flavour: str, file: str) -> tuple[str, str]:
        return flavour, self._hash(Path(file).read_text(encoding="utf-8", errors="replace"))

    def get(self, flavour: str, file: str) -> dict | None:
        raw = self.known.get(self.key(flavour, file))
        return None if raw is None else dict(raw, file=str(Path(file).resolve()))

    def add(self, flavour: str, raw: dict) -> None:
        if raw.get("exception") in ("ProcessCrashed", "ProcessFailed") or not Path(raw.get("file", "")).exists():
            return
        flavour_, text = self.key(flavour, raw["file"])
        with self.lock:
            self.known[(flavour_, text)] = raw
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"setting": self.setting, "flavour": flavour_, "text": text, "raw": raw}) + "\n")


CACHE: Cache | None = None
CACHED_ONLY = False


def run_scripts(entries: list[str], flavour: str, replicas: int = 2, workers: int = 2,
                timeout: float = PER_SCRIPT_TIMEOUT) -> dict[str, dict]:
    results: dict[str, dict] = {}
    if CACHE is not None:
        todo = []
        for entry in entries:
            files = entry.split("::")
            cached = [CACHE.get(flavour, f) for f in files]
            original_done = cached[0] is not None
            fixed_needed = len(files) > 1 and original_done and classify(cached[0])[0] in JUDGED
            if original_done and (not fixed_needed or cached[1] is not None):
                for f, raw in zip(files, cached):
                    if raw is not None:
                        results[str(Path(f).resolve())] = raw
            else:
                todo.append(entry)
        entries = todo
        if CACHED_ONLY:  # --cached-only: a table of what the cache holds, nothing run
            for entry in entries:
                first = str(Path(entry.split("::")[0]).resolve())
                results[first] = {"file": first, "exception": "NotRunYet", "message": "not in the cache yet"}
            return results
        if not entries:
            return results
    # As few processes as GROUP allows, a multiple of the workers so that both stay busy.
    count = max(1, -(-len(entries) // GROUP))
    count = -(-count // workers) * workers
    size = max(1, -(-len(entries) // count))
    groups = [entries[i:i + size] for i in range(0, len(entries), size)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(lambda g: _run_group(g, flavour, replicas, timeout), groups):
            results.update(part)
    return results


def fixed_copies(paths: list[Path], folder: Path) -> dict[Path, Path]:
    """script -> its copy as ``mirrorguard fix`` (safe fixes) leaves it, for the scripts the fix changes.

    The copies are written under ``folder`` (buggy/ and clean/ kept apart); the corpus is never touched.
    """
    from mirrorguard.checker import check_file
    from mirrorguard.fixer.fix import fix_source

    copies = {}
    for path in paths:
        if not check_file(str(path)):
            continue  # nothing to fix: `fix` does not even read the file again
        result = fix_source(path.read_text(encoding="utf-8"), str(path))
        if result.changed:
            target = folder / path.parent.name / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(result.text, encoding="utf-8")
            copies[path] = target
    return copies


def _run_of(path: Path, flavour: str, raw: dict) -> Run:
    verdict, detail = classify(raw)
    return Run(name_of(path), flavour, verdict, detail, raw.get("seconds", 0.0), raw.get("fits_done", 0),
               [f"{flavour}: {verdict}: {detail}"], cpu=raw.get("cpu_seconds", 0.0))


def run_corpus(paths: list[Path] | None = None, replicas: int = 2, workers: int = 2,
               fixes: bool = True) -> dict[str, Run]:
    """Every script's runtime verdict: Keras 3 first, tf-keras for what Keras 3 could not run.

    With ``fixes``, a script that ``mirrorguard fix`` changes is followed, in the same process
    and flavour, by its fixed copy when the script itself got a verdict (``Run.after_fix``).
    """
    paths = corpus_scripts() if paths is None else paths
    runs: dict[str, Run] = {}
    with tempfile.TemporaryDirectory(prefix=FIXED_FOLDER_PREFIX) as folder:
        copies = fixed_copies(paths, Path(folder)) if fixes else {}
        to_run: list[Path] = []
        for path in paths:
            missing = missing_modules(path)
            if missing:
                reason = f"not started: it imports {', '.join(missing)}, not installed here (found before running)"
                runs[name_of(path)] = Run(name_of(path), "-", "cannot", reason, tries=[reason],
                                          fix_changes=path in copies)
            else:
                to_run.append(path)

        def entries(group: list[Path]) -> list[str]:
            return [f"{p}::{copies[p]}" if p in copies else str(p) for p in group]

        def record(path: Path, flavour: str, results: dict) -> Run:
            run = _run_of(path, flavour, results[str(path.resolve())])
            fixed = copies.get(path)
            raw = results.get(str(fixed.resolve())) if fixed is not None else None
            if raw is not None and "skipped" not in raw:
                run.after_fix = _run_of(path, flavour, raw)
            run.fix_changes = fixed is not None
            return run

        keras3 = run_scripts(entries(to_run), "keras3", replicas, workers)
        retry: list[Path] = []
        for path in to_run:
            run = runs[name_of(path)] = record(path, "keras3", keras3)
            if run.verdict == "cannot" and not machine_reason(run.detail):
                retry.append(path)
        # A fixed copy that Keras 3 could not run for a reason that is neither a scope mistake nor
        # the machine's is tried with tf-keras too, as its original would have been.
        fix_retry = [p for p in to_run if runs[name_of(p)].verdict in JUDGED and runs[name_of(p)].after_fix is not None
                     and runs[name_of(p)].after_fix.verdict == "cannot"
                     and not machine_reason(runs[name_of(p)].after_fix.detail)]
        if retry or fix_retry:
            tfkeras = run_scripts(entries(retry + fix_retry), "tfkeras", replicas, workers)
            for path in fix_retry:
                again = record(path, "tfkeras", tfkeras)
                run = runs[name_of(path)]
                if again.after_fix is not None:
                    run.after_fix.tries = [*run.after_fix.tries, *again.after_fix.tries]
                    if again.after_fix.verdict != "cannot":
                        again.after_fix.tries = run.after_fix.tries
                        run.after_fix = again.after_fix
            for path in retry:
                again = record(path, "tfkeras", tfkeras)
                run = runs[name_of(path)]
                run.tries += again.tries
                run.cpu += again.cpu
                if again.verdict != "cannot":
                    again.tries, again.cpu = run.tries, run.cpu
                    runs[name_of(path)] = again
    return runs


JUDGED_LAST = ("guard", "tf-scope", "clean", "batch")


def last_results(results: Path = HERE / "RESULTS.md") -> dict[str, str]:
    """file -> the runtime verdict the last whole-corpus run (``--write``) recorded."""
    rows = {}
    for line in results.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"(buggy|clean)/[\w.]+\.py", cells[0]):
            rows[cells[0]] = cells[2]
    return rows


def scripts_for_ci(root: Path = CORPUS, results: Path = HERE / "RESULTS.md") -> list[Path]:
    """The scripts the suite runs: those the last whole-corpus run judged, and every script it
    has not seen (added since). The others stopped there for reasons of this machine (a module
    not installed, data on disk, a TPU, out of time): running them again costs minutes and
    judges nothing. ``MIRRORGUARD_CORPUS_ALL=1`` runs them all, as ``--write`` does."""
    scripts = corpus_scripts(root)
    if os.environ.get("MIRRORGUARD_CORPUS_ALL") == "1":
        return scripts
    last = last_results(results)
    return [p for p in scripts if last.get(name_of(p), "clean") in JUDGED_LAST]


def static_scope_codes(path: Path) -> set[str]:
    from mirrorguard.checker import check_file

    return {finding.code for finding in check_file(str(path))} & SCOPE_CODES


def table_rows(section: str, readme: Path = HERE / "README.md") -> dict[str, str]:
    """file -> why, from the table of README.md's section of that title ("Disagreements", "Fix runs")."""
    text = readme.read_text(encoding="utf-8")
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and re.fullmatch(r"`?(buggy|clean)/[\w.]+\.py`?", cells[0]):
            rows[cells[0].strip("`")] = cells[-1]
    return rows


def known_disagreements(readme: Path = HERE / "README.md") -> dict[str, str]:
    return table_rows("Disagreements", readme)


def known_fix_failures(readme: Path = HERE / "README.md") -> dict[str, str]:
    return table_rows("Fix runs", readme)


@dataclass
class Comparison:
    runs: dict
    static: dict  # file -> set of scope codes
    judged: list = field(default_factory=list)
    agree: list = field(default_factory=list)
    disagree: list = field(default_factory=list)
    batch: list = field(default_factory=list)
    cannot: list = field(default_factory=list)
    fixed: list = field(default_factory=list)  # judged scripts whose fixed copy ran
    fix_clean: list = field(default_factory=list)  # ... and trained clean, with guarded fits
    fix_broken: list = field(default_factory=list)  # ... and did not
    fix_unjudged: list = field(default_factory=list)  # ... and could not, for the machine's reasons
    changed_by_fix: list = field(default_factory=list)  # every script `mirrorguard fix` changes


def fix_is_clean(run: Run) -> bool:
    """The fixed copy ran to its end on 2 replicas and its fit()s trained with mirrored variables."""
    return run.after_fix is not None and run.after_fix.verdict == "clean" and run.after_fix.fits >= 1


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
        if run.fix_changes:
            result.changed_by_fix.append(name)
        if name in result.judged and run.after_fix is not None:
            result.fixed.append(name)
            if fix_is_clean(run):
                result.fix_clean.append(name)
            elif run.after_fix.verdict == "cannot" and machine_reason(run.after_fix.detail):
                result.fix_unjudged.append(name)  # out of time, or one replica here: not the fix's doing
            else:
                result.fix_broken.append(name)
    return result


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(comparison: Comparison) -> str:
    lines = ["| file | static (MG101-MG105) | runtime | flavour | agree | after `mirrorguard fix` | detail |",
             "|---|---|---|---|---|---|---|"]
    for name, run in sorted(comparison.runs.items()):
        static = ", ".join(sorted(comparison.static[name])) or "clean"
        agree = {True: "yes", False: "**no**"}.get(name in comparison.agree) if name in comparison.judged else "-"
        detail = _cell(run.detail)
        if run.verdict == "cannot" and len(run.tries) > 1:
            detail = " / ".join(_cell(t) for t in run.tries)
        after = "-"
        if run.after_fix is not None:
            fix = run.after_fix
            after = f"{fix.verdict} ({fix.fits} fit(s))" if fix.verdict != "cannot" else f"cannot: {_cell(fix.detail)}"
            if name in comparison.fix_broken:
                after = f"**{after}**"
        lines.append(f"| {name} | {static} | {run.verdict} | {run.flavour} | {agree} | {after} | {detail} |")
    return "\n".join(lines)


def summary(comparison: Comparison) -> str:
    runs = comparison.runs
    by_flavour = {f: sum(1 for n in comparison.judged if runs[n].flavour == f) for f in ("keras3", "tfkeras")}
    buggy = sum(1 for n in comparison.judged if n.startswith("buggy/"))
    not_started = sum(1 for n in comparison.cannot if runs[n].flavour == "-")
    return (f"{len(runs)} scripts; {len(comparison.judged)} judged by the runtime "
            f"({buggy} buggy, {len(comparison.judged) - buggy} clean; keras3 {by_flavour['keras3']}, "
            f"tfkeras {by_flavour['tfkeras']}); agree {len(comparison.agree)}, disagree {len(comparison.disagree)}; "
            f"batch guard {len(comparison.batch)}; cannot run here {len(comparison.cannot)} "
            f"({not_started} not started: a module they import is not installed); "
            f"fixed copies run {len(comparison.fixed)}: clean {len(comparison.fix_clean)}, "
            f"not clean {len(comparison.fix_broken)}, cannot run here {len(comparison.fix_unjudged)}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="refresh RESULTS.md")
    parser.add_argument("--cache", type=Path, help="keep raw results in this JSON-lines file and resume from it")
    parser.add_argument("--cached-only", action="store_true",
                        help="with --cache: the table of what the cache holds (a run stopped half-way), nothing run")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args(argv)
    global PROGRESS, CACHE, CACHED_ONLY
    PROGRESS = True
    if args.cache:
        CACHE = Cache(args.cache, 2, PER_SCRIPT_TIMEOUT)
    CACHED_ONLY = bool(args.cached_only and CACHE is not None)
    paths = [Path(f).resolve() for f in args.files] or corpus_scripts()
    began, cpu_began = time.monotonic(), _cpu_seconds()
    runs = run_corpus(paths)
    comparison = compare(runs, paths)
    took, cpu = time.monotonic() - began, _cpu_seconds() - cpu_began
    text = table(comparison)
    print(text)
    timing = f"{took:.0f} s wall-clock, {cpu:.0f} CPU s (this process and its runners)"
    print(summary(comparison) + f"; {timing}")
    if args.write:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        from importlib.metadata import version  # noqa: PLC0415  (TensorFlow's, without importing it)

        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        partial = ""
        if CACHED_ONLY:
            cpu = sum(raw.get("cpu_seconds", 0.0) for raw in CACHE.known.values())
            partial = (f"**Partial**: the table of a whole-corpus run stopped half-way (`--cached-only`): "
                       f"{len(CACHE.known)} runs were in its cache, using {cpu:.0f} CPU s in the runners "
                       f"(TensorFlow's start-ups not counted); `NotRunYet` marks the rest. The timing below is "
                       f"only the table's.\n\n")
        (HERE / "RESULTS.md").write_text(
            "# Corpus run for real (generated by harness.py --write)\n\n" + partial +
            f"Commit {commit}, TensorFlow {version('tensorflow')}, 2 logical CPU replicas; {timing}; "
            f"load average at the end {load}.\n\n"
            f"{summary(comparison)}.\n\n{text}\n",
            encoding="utf-8",
        )
    return 0


def _cpu_seconds() -> float:
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    sys.exit(main())
