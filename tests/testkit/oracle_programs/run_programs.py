"""Run oracle programs in this one process and print what the oracle said, as one JSON line.

    python run_programs.py [NAME ...]

TensorFlow starts once (seconds) for all of them; the flavour follows TF_USE_LEGACY_KERAS.
This prints observations only; the tests decide what they should be.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mirrorguard.testkit import split_cpu  # noqa: E402

split_cpu(2)

from mirrorguard.testkit import ReplicaMismatchError, compare_replicas  # noqa: E402
import programs  # noqa: E402

PREFIX = "MG-ORACLE "


def observe(name: str) -> dict:
    base = programs.STRICT.get(name, name)
    build = programs.PROGRAMS[base]
    data = programs.DATA_OF.get(base, programs.DATA)
    started = time.monotonic()
    try:
        report = compare_replicas(
            build, data, global_batch_size=programs.GLOBAL_BATCH, strict=name in programs.STRICT
        )
        outcome = {"passed": True}
    except ReplicaMismatchError as error:
        report = error.report
        outcome = {"passed": False}
    except Exception as error:  # an observation: the test says whether it was expected
        return {"error": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()[-2000:]}
    outcome.update(
        causes=report.causes,
        expected=[d.expected for d in report.diagnoses],
        messages=[d.message for d in report.diagnoses],
        notes=report.notes,
        table=report.format(),
        seconds=round(time.monotonic() - started, 2),
    )
    return outcome


def main(names: list[str]) -> None:
    names = names or [*programs.PROGRAMS, *programs.STRICT]
    results = {}
    for name in names:
        results[name] = observe(name)
        print(f"{name}: {results[name].get('seconds', 'error')}", file=sys.stderr, flush=True)
    print(PREFIX + json.dumps(results), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
