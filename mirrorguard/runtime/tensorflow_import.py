"""Import TensorFlow without its start-up log lines, for everything of ours that starts it.

TensorFlow's C++ libraries log while they load and while they look for devices
("Could not find cuda drivers...", "failed call to cuInit..." on a CPU-only
machine). Some of those lines are written before ``TF_CPP_MIN_LOG_LEVEL`` takes
effect, so the variable alone does not silence them: the import also runs with
its stderr filtered. A user who sets ``TF_CPP_MIN_LOG_LEVEL`` to 0 or 1 gets
TensorFlow's own behaviour, every line included. Used by ``mirrorguard train``, ``mirrorguard
verify`` and the pytest plugin.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
import threading
from collections.abc import Iterator

# absl's log line: severity letter, MMDD, time, thread, file:line]. INFO and
# WARNING only; an error or a crash message still gets through.
_STARTUP_NOISE = re.compile(
    rb"^(?:[IW]\d{4} \d\d:\d\d:\d+\.\d+ +\d+ [^\]]+\] "
    rb"|WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR)"
)


def import_quietly(module: str = "tensorflow"):
    """Import and return ``module`` (TensorFlow, or something that imports it) without the start-up noise.

    A missing module raises ``ModuleNotFoundError`` as a plain import does.
    """
    if module in sys.modules:
        return sys.modules[module]
    level = os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # 3 also hides the cuInit ERROR line
    # The lines logged before the level takes effect are INFO and WARNING ones: dropped where the
    # level asks to hide both (ours, or a user's 2 or 3, as the pytest plugin sets it); 0 and 1 keep them.
    quiet = level in ("2", "3")
    with _startup_logs_dropped() if quiet else contextlib.nullcontext():
        return importlib.import_module(module)


@contextlib.contextmanager
def _startup_logs_dropped() -> Iterator[None]:
    """Filter file descriptor 2 (C++ writes there directly) while the block runs."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to filter
        yield
        return
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)

    def forward() -> None:
        with os.fdopen(read_end, "rb") as pipe:
            for line in pipe:
                if not _STARTUP_NOISE.match(line):
                    os.write(saved, line)

    thread = threading.Thread(target=forward, name="mirrorguard-stderr-filter", daemon=True)
    thread.start()
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)  # closes the pipe's last write end: forward() reads to the end
        thread.join()
        os.close(saved)
