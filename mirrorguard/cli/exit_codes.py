"""Exit codes of every ``mirrorguard`` command, and how a usage error reaches the user.

As ruff: 0 nothing found, 1 findings, 2 a usage error or a bug of ours.
Defined here once; every subcommand imports them from here.
"""

from __future__ import annotations

import sys

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A bad argument or setting: reported on stderr, exit 2."""


def error(message: str) -> None:
    print(f"mirrorguard: error: {message}", file=sys.stderr)


def warning(message: str) -> None:
    print(f"mirrorguard: warning: {message}", file=sys.stderr)
