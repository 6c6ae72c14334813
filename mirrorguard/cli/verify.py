"""``mirrorguard verify PATH::FUNCTION [options]``: the replica oracle on a user's ``build`` function.

The command belongs to :mod:`mirrorguard.testkit.verify`, imported only when
``verify`` runs; it imports TensorFlow only once it runs the oracle. That module's contract:

- ``add_arguments(parser)`` adds every argument of the command to ``parser``
  (an ``argparse.ArgumentParser`` with ``prog="mirrorguard verify"``), the
  ``PATH::FUNCTION`` target included;
- ``run(args) -> int`` runs it on the parsed arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import importlib
from typing import Sequence

from mirrorguard.cli.exit_codes import EXIT_CLEAN, EXIT_USAGE, error

MODULE = "mirrorguard.testkit.verify"


def add_parser(subparsers) -> None:
    # Listed in `mirrorguard --help` only; `main` hands the arguments over before parsing.
    subparsers.add_parser("verify", help="compare a model's training on several replicas with one "
                                         "(see `mirrorguard verify --help`)", add_help=False)


def run(argv: Sequence[str]) -> int:
    module = importlib.import_module(MODULE)
    from mirrorguard.cli.options import Parser

    parser = Parser(prog="mirrorguard verify", allow_abbrev=False,
                    description="Run a training step of the model PATH::FUNCTION builds on several "
                                "replicas and on one, and compare them.")
    module.add_arguments(parser)
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:  # argparse printed help or the message
        return EXIT_CLEAN if exc.code == 0 else EXIT_USAGE
    try:
        return module.run(args)
    except ModuleNotFoundError as exc:
        # The oracle trains a model: without TensorFlow that is a set-up problem, not our bug.
        if (exc.name or "").split(".")[0] not in ("tensorflow", "keras", "tf_keras"):
            raise
        error(f"`mirrorguard verify` trains a model and needs {exc.name}: pip install 'mirrorguard[tf]'")
        return EXIT_USAGE
