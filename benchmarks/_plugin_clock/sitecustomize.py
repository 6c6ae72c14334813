"""Put on PYTHONPATH by bench_checker.py: clocks the CPU time a flake8 process spends in the
mirrorguard plugin (its import, its options, every ``run()`` drained) and writes
"PLUGIN_SECONDS PROCESS_SECONDS" to the file named by $MIRRORGUARD_PLUGIN_CLOCK at exit.

The difference of two whole flake8 runs on a shared machine swings by several per cent;
this measures the plugin's share inside one run, which the neighbours move far less.
"""

import atexit
import os
import time

_start = time.process_time()
import flake8_mirrorguard as _plugin  # noqa: E402  (flake8 would import it the same way)

_spent = [time.process_time() - _start]
_run = _plugin.Plugin.run
_parse_options = _plugin.Plugin.parse_options.__func__


def _clocked_run(self):
    start = time.process_time()
    try:
        return iter(list(_run(self)))
    finally:
        _spent[0] += time.process_time() - start


def _clocked_parse_options(cls, options):
    start = time.process_time()
    try:
        return _parse_options(cls, options)
    finally:
        _spent[0] += time.process_time() - start


_plugin.Plugin.run = _clocked_run
_plugin.Plugin.parse_options = classmethod(_clocked_parse_options)


def _write() -> None:
    with open(os.environ["MIRRORGUARD_PLUGIN_CLOCK"], "w") as handle:
        handle.write(f"{_spent[0]} {time.process_time()}\n")


if os.environ.get("MIRRORGUARD_PLUGIN_CLOCK"):
    atexit.register(_write)
