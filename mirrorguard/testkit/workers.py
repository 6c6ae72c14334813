"""Run a function in N local worker processes that form one ``TF_CONFIG`` cluster.

:func:`run_workers` is the multi-worker counterpart of ``split_cpu``: it rehearses
``MultiWorkerMirroredStrategy`` (or any code that reads ``TF_CONFIG``) on one machine,
in CI, with no cluster. Each worker is a fresh Python interpreter (TensorFlow reads
``TF_CONFIG`` when the strategy is made, and its runtime cannot be forked), started
with the cluster on free ports of 127.0.0.1 and its own task index.

``fn`` is named, not sent: a module-level function (``my_tests.train_one_epoch``) or
a ``"package.module:function"`` string, which each worker imports. Its arguments and
return value travel pickled. The workers see the parent's ``sys.path``, so a function
in a test module works as it does under pytest. Nothing here imports TensorFlow.

Every worker runs in a process group of its own; when the run ends (finished, failed,
timed out or interrupted) each group is killed before its leader is reaped, so a
worker's own children go too and no other process can be hit.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "WorkerOutcome",
    "Workers",
    "WorkersFailed",
    "WorkersTimedOut",
    "run_workers",
    "task_index",
]

DEFAULT_TIMEOUT = 120.0
HOST = "127.0.0.1"
# What a worker's error shows of its output when it left no traceback (killed, crashed).
_TAIL_LINES = 40

# The worker's first line of Python: put the parent's sys.path first, then hand over.
_BOOTSTRAP = (
    "import json, sys\n"
    "sys.path[:0] = json.load(open(sys.argv[1] + '.path'))\n"
    "from mirrorguard.testkit.workers import _worker_main\n"
    "sys.exit(_worker_main(sys.argv[1]))\n"
)


@dataclass
class WorkerOutcome:
    """How one worker ended: its value, or why it has none."""

    index: int
    returncode: int | None = None  # None: still running when the run was stopped
    value: Any = None
    error: str | None = None  # the worker's own traceback, or what happened to it
    output: list[str] = field(default_factory=list)  # stdout and stderr, line by line

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.error is None

    def describe(self) -> str:
        if self.ok:
            return f"worker {self.index}: returned {self.value!r}"
        head = f"worker {self.index}: {(self.error or _exit_text(self.returncode)).rstrip()}"
        if self.error and "Traceback" in self.error:
            return head
        tail = "".join(self.output[-_TAIL_LINES:]).rstrip()
        return f"{head}\n  last output:\n" + (_indent(tail) if tail else "    (none)")


class WorkersFailed(Exception):
    """One worker or more raised, crashed or was killed; ``outcomes`` holds every worker's story."""

    def __init__(self, summary: str, outcomes: Sequence[WorkerOutcome]):
        self.outcomes = list(outcomes)
        details = "\n".join(outcome.describe() for outcome in self.outcomes)
        super().__init__(f"{summary}\n{details}")


class WorkersTimedOut(WorkersFailed):
    """The run took longer than ``timeout``; the workers still running were killed."""


def task_index() -> int:
    """This worker's index in ``TF_CONFIG`` (0 is the chief); call it inside ``fn``."""
    return int(json.loads(os.environ["TF_CONFIG"])["task"]["index"])


def run_workers(
    fn: Callable[..., Any] | str,
    workers: int = 2,
    timeout: float = DEFAULT_TIMEOUT,
    *,
    args: Sequence[Any] = (),
    kwargs: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    echo: bool = False,
) -> list[Any]:
    """Call ``fn(*args, **kwargs)`` in ``workers`` processes of one cluster; return their values.

    Example::

        from mirrorguard.testkit import run_workers

        def replicas():  # module level: each worker imports it
            import tensorflow as tf
            return tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync

        assert run_workers(replicas, workers=2, timeout=60) == [2, 2]

    Args:
        fn: a module-level function or a ``"module:function"`` string.
        workers: how many processes; worker 0 is the chief. Defaults to `2`.
        timeout: seconds for the whole run, start-up included; then every worker
            still running is killed and :class:`WorkersTimedOut` is raised.
            Defaults to `120`.
        args, kwargs: passed to ``fn`` in every worker (pickled).
        env: variables added to each worker's environment (``TF_CONFIG`` is set
            for you). Defaults to none.
        cwd: the workers' working directory. Defaults to the current one.
        echo: copy each worker's output to stdout as it comes, as
            ``[worker N] line``. Defaults to `False`.

    Returns the values in task order. Raises :class:`WorkersFailed`, with every
    worker's traceback or exit status and output, when any worker does not return.
    """
    with Workers(fn, workers, args=args, kwargs=kwargs, env=env, cwd=cwd, echo=echo) as cluster:
        return cluster.wait(timeout)


class Workers:
    """A running cluster of workers, for tests that act while it runs (kill it mid-epoch...).

    Use it as a context manager: leaving the block kills whatever is still running.
    :func:`run_workers` is ``with Workers(...) as w: return w.wait(timeout)``.
    """

    def __init__(
        self,
        fn: Callable[..., Any] | str,
        workers: int = 2,
        *,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        echo: bool = False,
    ):
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise ValueError(
                f"Invalid value for argument `workers`: expected a whole number >= 1. Received: workers={workers!r}"
            )
        self.target = _reference(fn)
        self.count = workers
        self.echo = echo
        self._payload = {
            "target": self.target,
            "args": tuple(args),
            "kwargs": dict(kwargs or {}),
            "parent": os.getpid(),
        }
        try:
            pickle.dumps(self._payload)
        except Exception as error:
            raise TypeError(f"the arguments for {self.target} cannot be pickled: {error}") from None
        self._extra_env = dict(env or {})
        self._cwd = os.fspath(cwd) if cwd is not None else None
        self._scratch: str | None = None
        self._processes: list[subprocess.Popen] = []
        self._readers: list[threading.Thread] = []
        self._outputs: list[list[str]] = []
        self._new_output = threading.Condition()
        self._ended: dict[int, int] = {}  # index -> exit status, once the worker has ended
        self._killed: set[int] = set()  # still running when we stopped the run
        self.cluster: list[str] = []

    # -- life cycle ---------------------------------------------------------------

    def __enter__(self) -> Workers:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.kill()

    def start(self) -> None:
        """Start every worker; they run until they end, :meth:`wait` times out, or :meth:`kill`."""
        if self._processes:
            raise RuntimeError("these workers were already started")
        self._scratch = tempfile.mkdtemp(prefix="mirrorguard-workers-")
        self.cluster = [f"{HOST}:{port}" for port in free_ports(self.count)]
        base_env = dict(os.environ)
        base_env.update(self._extra_env)
        base_env["PYTHONUNBUFFERED"] = "1"  # output arrives line by line, also from a killed worker
        paths = [os.path.abspath(entry or os.curdir) for entry in sys.path]
        try:
            for index in range(self.count):
                payload_path = os.path.join(self._scratch, f"worker{index}")
                with open(payload_path, "wb") as file:
                    pickle.dump(self._payload, file)
                with open(payload_path + ".path", "w") as file:
                    json.dump(paths, file)
                env = dict(base_env, TF_CONFIG=tf_config(self.cluster, index))
                process = subprocess.Popen(
                    [sys.executable, "-c", _BOOTSTRAP, payload_path],
                    cwd=self._cwd,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    # A session, hence a process group, per worker (process_group= needs
                    # Python 3.11): killing the group takes the worker's own children too.
                    start_new_session=True,
                )
                self._processes.append(process)
                self._outputs.append([])
                reader = threading.Thread(
                    target=self._read, args=(index, process.stdout), name=f"mirrorguard-worker-{index}", daemon=True
                )
                reader.start()
                self._readers.append(reader)
        except BaseException:
            self.kill()
            raise

    def wait(self, timeout: float = DEFAULT_TIMEOUT) -> list[Any]:
        """Wait for every worker to end; return their values or raise :class:`WorkersFailed`."""
        deadline = time.monotonic() + timeout
        while len(self._ended) < self.count:
            self._poll()
            if len(self._ended) == self.count:
                break
            if time.monotonic() >= deadline:
                running = [i for i in range(self.count) if i not in self._ended]
                outcomes = self._finish()
                raise WorkersTimedOut(
                    f"{self.target} on {self.count} workers did not end within {timeout:g} s; "
                    f"killed worker(s) {', '.join(map(str, running))}",
                    outcomes,
                )
            time.sleep(0.05)
        outcomes = self._finish()
        failed = [outcome.index for outcome in outcomes if not outcome.ok]
        if failed:
            raise WorkersFailed(
                f"{self.target} failed on worker(s) {', '.join(map(str, failed))} of {self.count}", outcomes
            )
        return [outcome.value for outcome in outcomes]

    def kill(self) -> None:
        """Kill every worker still running (and its children); harmless when all have ended."""
        self._kill_running()
        for reader in self._readers:
            reader.join(timeout=5)
        if self._scratch:
            _remove_tree(self._scratch)
            self._scratch = None

    # -- watching a running cluster -----------------------------------------------

    def output(self, index: int) -> str:
        """What worker ``index`` printed so far (stdout and stderr)."""
        with self._new_output:
            return "".join(self._outputs[index])

    def wait_for_output(self, index: int, pattern: str, timeout: float = DEFAULT_TIMEOUT) -> re.Match[str]:
        """Block until a line of worker ``index`` matches the regular expression ``pattern``.

        Raises :class:`WorkersFailed` if the worker ends first, :class:`WorkersTimedOut` after
        ``timeout`` seconds; the cluster keeps running in both cases (leave the ``with`` block to end it).
        """
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        seen = 0
        with self._new_output:
            while True:
                lines = self._outputs[index]
                for line in lines[seen:]:
                    match = regex.search(line)
                    if match:
                        return match
                seen = len(lines)
                if not self._readers[index].is_alive():  # the pipe closed: the worker ended
                    raise WorkersFailed(
                        f"worker {index} ended before printing a line matching {pattern!r}", self._snapshot()
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WorkersTimedOut(
                        f"worker {index} printed no line matching {pattern!r} within {timeout:g} s", self._snapshot()
                    )
                self._new_output.wait(min(left, 0.5))

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self._processes]

    # -- internals ----------------------------------------------------------------

    def _read(self, index: int, stream) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", errors="replace")
            with self._new_output:
                self._outputs[index].append(line)
                self._new_output.notify_all()
            if self.echo:
                sys.stdout.write(f"[worker {index}] {line}")
                sys.stdout.flush()
        stream.close()
        with self._new_output:
            self._new_output.notify_all()

    def _poll(self) -> None:
        for index, process in enumerate(self._processes):
            if index not in self._ended and _has_ended(process.pid):
                self._end(index, process)

    def _end(self, index: int, process: subprocess.Popen) -> None:
        # The leader is a zombie or alive, never reaped here, so its pid still names
        # our group: killing the group cannot reach anyone else's processes.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        self._ended[index] = process.wait()

    def _finish(self) -> list[WorkerOutcome]:
        self._kill_running()
        for reader in self._readers:
            reader.join(timeout=5)
        outcomes = self._snapshot()
        _remove_tree(self._scratch)
        self._scratch = None
        return outcomes

    def _kill_running(self) -> None:
        for index, process in enumerate(self._processes):
            if index not in self._ended:
                self._killed.add(index)
                self._end(index, process)

    def _snapshot(self) -> list[WorkerOutcome]:
        outcomes = []
        for index in range(self.count):
            with self._new_output:
                output = list(self._outputs[index])
            outcome = WorkerOutcome(index, self._ended.get(index), output=output)
            report = self._report(index) if index in self._ended else None
            if index in self._killed:
                outcome.error = "was still running, so it was killed"
            elif index not in self._ended:
                outcome.error = "still running"
            elif report is None:
                outcome.error = _exit_text(outcome.returncode) + " without reporting a value"
            elif report["ok"]:
                outcome.value = report["value"]
            else:
                outcome.error = report["error"]
            outcomes.append(outcome)
        return outcomes

    def _report(self, index: int) -> dict[str, Any] | None:
        if not self._scratch:
            return None
        path = os.path.join(self._scratch, f"worker{index}.result")
        try:
            with open(path, "rb") as file:
                return pickle.load(file)
        except FileNotFoundError:
            return None
        except Exception as error:  # the value could not be unpickled here
            return {"ok": False, "error": f"its value could not be unpickled by the parent: {error!r}"}


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports of 127.0.0.1 that nobody listens on right now.

    The sockets are closed before the workers bind the ports, so another process
    could take one in between; the worker then fails to start its server.
    """
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((HOST, 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def tf_config(cluster: Sequence[str], index: int) -> str:
    """The ``TF_CONFIG`` value of worker ``index`` in a cluster of ``worker`` tasks."""
    return json.dumps({"cluster": {"worker": list(cluster)}, "task": {"type": "worker", "index": index}})


def _reference(fn: Callable[..., Any] | str) -> str:
    """``"module:qualname"`` for ``fn``, checking a worker will be able to import it."""
    if isinstance(fn, str):
        module, sep, name = fn.partition(":")
        if not sep or not module or not name:
            raise ValueError(f"Invalid value for argument `fn`: expected 'module:function'. Received: fn={fn!r}")
        return fn
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    if not callable(fn) or not module or not qualname or "<" in qualname:
        raise TypeError(
            f"Invalid value for argument `fn`: each worker imports it, so it must be a module-level "
            f"function or a 'module:function' string, not a lambda or nested function. Received: fn={fn!r}"
        )
    if module == "__main__":
        main_file = getattr(sys.modules["__main__"], "__file__", None)
        if not main_file:
            raise TypeError(f"{qualname} is defined in an interactive session; put it in a module")
        return f"{os.path.abspath(main_file)}:{qualname}"
    return f"{module}:{qualname}"


def _resolve(target: str) -> Callable[..., Any]:
    module_name, _, qualname = target.rpartition(":")
    if module_name.endswith(".py"):
        # A script's function: load the file under another name, so that its
        # `if __name__ == "__main__":` block does not run again in the worker.
        import importlib.util

        spec = importlib.util.spec_from_file_location("__mp_main__", module_name)
        module = importlib.util.module_from_spec(spec)
        sys.modules["__mp_main__"] = module
        spec.loader.exec_module(module)
    else:
        import importlib

        module = importlib.import_module(module_name)
    obj: Any = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _worker_main(payload_path: str) -> int:
    """Inside a worker: call the function and leave its value (or traceback) for the parent."""
    with open(payload_path, "rb") as file:
        payload = pickle.load(file)
    _die_with_parent(payload["parent"])
    try:
        report = {"ok": True, "value": _resolve(payload["target"])(*payload["args"], **payload["kwargs"])}
    except SystemExit as exit_:
        # sys.exit(0) is a plain return; any other code is the function saying it failed.
        ok = exit_.code in (None, 0)
        report = {"ok": True, "value": None} if ok else {"ok": False, "error": f"called sys.exit({exit_.code!r})"}
    except BaseException as error:
        # The traceback starts at the function: the frame above it is ours.
        frames = traceback.format_exception(type(error), error, error.__traceback__.tb_next)
        report = {"ok": False, "error": "".join(frames)}
    try:
        data = pickle.dumps(report)
    except Exception as error:
        report = {"ok": False, "error": f"its return value cannot be pickled: {error!r}"}
        data = pickle.dumps(report)
    if not report["ok"]:
        sys.stderr.write(report["error"].rstrip() + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    # Written whole, then renamed: a worker killed while writing leaves no half file.
    result_path = payload_path + ".result"
    with open(result_path + ".part", "wb") as file:
        file.write(data)
    os.replace(result_path + ".part", result_path)
    return 0 if report["ok"] else 1


def _die_with_parent(parent: int) -> None:
    """Have Linux kill this worker when the process that started it dies (killed itself, say).

    Its own session shields the worker from the terminal's signals, so without this a
    parent killed by SIGKILL (a CI job's time limit) would leave it running. Elsewhere
    the parent's clean-up is all there is.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    PR_SET_PDEATHSIG = 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the line above: nobody will clean up
        os._exit(1)


def _has_ended(pid: int) -> bool:
    """Whether child ``pid`` has ended, without reaping it (so its pid stays ours)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _exit_text(returncode: int | None) -> str:
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exited with status {returncode}"


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _remove_tree(path: str | None) -> None:
    if path:
        import shutil

        shutil.rmtree(path, ignore_errors=True)
