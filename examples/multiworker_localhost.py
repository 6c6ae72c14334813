"""Rehearse multi-worker training on one machine: N processes, one CPU replica each.

    python examples/multiworker_localhost.py -- --dataset synthetic --epochs 2
    python examples/multiworker_localhost.py --workers 3 --timeout 900 -- --loop custom

Everything after ``--`` goes to ``mirrorguard train --strategy multiworker`` in every
worker. ``mirrorguard.testkit.run_workers`` starts them: the same cluster in
TF_CONFIG (free ports of 127.0.0.1), each its own task index, every line of output
prefixed with its worker, and all of them killed if the run outlasts ``--timeout``.
A real cluster needs the same: start the same command on each machine, with the
machines' addresses in TF_CONFIG, and a --backup-dir on storage they all share.

``fit`` needs tf-keras under MultiWorkerMirroredStrategy, so the workers get
``TF_USE_LEGACY_KERAS=1`` unless you set it; with ``--loop custom`` they use
whichever Keras your environment selects (Keras 3 by default).
"""

from __future__ import annotations

import argparse
import os
import sys

from mirrorguard.testkit import WorkersFailed, run_workers


def custom_loop(train_args: list[str]) -> bool:
    return "--loop=custom" in train_args or ["--loop", "custom"] in [
        train_args[i : i + 2] for i in range(len(train_args) - 1)
    ]


def main(argv: list[str]) -> int:
    own, train_args = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else ([], argv)
    parser = argparse.ArgumentParser(prog="multiworker_localhost.py", allow_abbrev=False)
    parser.add_argument("--workers", type=int, default=2, help="processes in the cluster (default: 2)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds before every worker is killed (default: 600)")
    options = parser.parse_args(own)

    env = {}
    if not custom_loop(train_args) and "TF_USE_LEGACY_KERAS" not in os.environ:
        # Keras 3 cannot fit() under MultiWorkerMirroredStrategy yet; tf-keras can.
        # Its custom loop (--loop custom) works with both flavours.
        env["TF_USE_LEGACY_KERAS"] = "1"
    try:
        codes = run_workers(
            "mirrorguard.train:main",
            workers=options.workers,
            timeout=options.timeout,
            args=(["--strategy", "multiworker", *train_args],),
            env=env,
            echo=True,
        )
    except WorkersFailed as error:
        print(error, file=sys.stderr)
        return 1
    print(f"worker exit codes: {codes}")
    return max(codes, key=abs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
