"""Suite-wide pytest set-up.

* The corpus, project and red-team folders hold programs that are data for the checker
  (some written as test files, e.g. corpus/clean/mg101_tf_distribute_unit_test.py): they are
  never collected, so collecting the suite imports no TensorFlow.
* The quick tier is ``pytest -m "not tf"``: every test that needs TensorFlow carries the
  ``tf`` marker. The header says which tier runs and which TensorFlow/Keras it would use,
  and a TensorFlow test prints one line when it starts, so a CI log never sits silent
  while subprocesses train.
"""

from __future__ import annotations

import contextlib
import importlib.util
import time

collect_ignore_glob = ["corpus/*", "projects/*", "redteam/*"]


def _version(module: str) -> str:
    # Read installed versions from metadata: importing TensorFlow here would cost
    # seconds in the quick tier, which must not import it at all.
    from importlib import metadata

    candidates = {
        "tensorflow": ("tensorflow", "tensorflow-cpu"),
        "keras": ("keras", "keras-nightly"),
        "tf_keras": ("tf-keras",),
    }
    for dist in candidates[module]:
        try:
            return f"{dist} {metadata.version(dist)}"
        except metadata.PackageNotFoundError:
            continue
    return f"{module} not installed" if importlib.util.find_spec(module) is None else f"{module} (version unknown)"


def pytest_report_header(config):
    markexpr = config.getoption("markexpr", "") or "(all tiers)"
    return [
        f"mirrorguard tests: -m {markexpr}; {_version('tensorflow')}, {_version('keras')}, {_version('tf_keras')}",
    ]


_started = time.monotonic()


def pytest_runtest_setup(item):
    if item.get_closest_marker("tf") is None:
        return
    reporter = item.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    elapsed = time.monotonic() - _started
    # One line per TensorFlow test, "[tf 12:34] tests/runtime/test_guards.py::test_x", written
    # past pytest's capture (setup output is otherwise captured), before its fixtures start.
    capture = item.config.pluginmanager.get_plugin("capturemanager")
    # With -v pytest prints the test's id as it starts; the line adds the time since the start.
    line = f"[tf {int(elapsed) // 60:02d}:{int(elapsed) % 60:02d}] {item.nodeid}"
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        reporter.write(f"\n{line}\n", flush=True)
