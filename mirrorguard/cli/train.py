"""``mirrorguard train ...``: the reference training script, which owns its own argument parser."""

from __future__ import annotations

from typing import Sequence


def add_parser(subparsers) -> None:
    # Listed in `mirrorguard --help` only; `main` hands the arguments over before parsing.
    subparsers.add_parser("train", help="run the reference training script (see `mirrorguard train --help`)",
                          add_help=False)


def run(argv: Sequence[str]) -> int:
    from mirrorguard.train import main as train_main

    return train_main(list(argv))
