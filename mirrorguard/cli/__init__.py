"""The ``mirrorguard`` command: check, fix, rule, rules, train, verify.

One module per subcommand; what ``check`` and ``fix`` share is in
:mod:`.options`, the exit codes in :mod:`.exit_codes` (0 nothing found, 1
findings, 2 usage or internal error, as ruff). ``train`` and ``verify`` own
their argument parsers and get their arguments before any parsing here.
Everything heavier than argparse is imported when a subcommand runs.
"""

from __future__ import annotations

import os
import sys
from typing import Sequence

from mirrorguard import __version__
from mirrorguard.cli.exit_codes import EXIT_CLEAN, EXIT_USAGE, UsageError, error

__all__ = ["build_parser", "main"]


def build_parser():
    from mirrorguard.cli import check, fix, rule, train, verify
    from mirrorguard.cli.options import Parser

    parser = Parser(
        prog="mirrorguard",
        description="Catch tf.distribute mistakes before they cost a GPU-day.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"mirrorguard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    check.add_parser(sub)
    fix.add_parser(sub)
    rule.add_parsers(sub)
    train.add_parser(sub)
    verify.add_parser(sub)
    return parser


class _PipeGuard:
    """stdout that survives its reader going away (``| head``): later writes are dropped,
    so the command finishes its work and still exits with its own status."""

    def __init__(self, stream, state: list | None = None) -> None:
        self._stream = stream
        self._state = state if state is not None else [False]

    @property
    def broken(self) -> bool:
        return self._state[0]

    def _broke(self) -> None:
        self._state[0] = True
        try:  # nothing more reaches the closed pipe, not even the interpreter's last flush
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def write(self, data):
        if self._state[0]:
            return len(data)
        try:
            return self._stream.write(data)
        except BrokenPipeError:
            self._broke()
            return len(data)

    def flush(self) -> None:
        if self._state[0]:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._broke()

    @property
    def buffer(self):
        return _PipeGuard(self._stream.buffer, self._state)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("train", "verify"):
        # These own their argument parsers.
        from mirrorguard.cli import train, verify

        return (train if argv[0] == "train" else verify).run(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the message
        return EXIT_CLEAN if exc.code == 0 else EXIT_USAGE
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    stdout = sys.stdout
    guarded = sys.stdout = _PipeGuard(stdout)
    try:
        return args.handler(args)
    except UsageError as exc:
        error(str(exc))
        return EXIT_USAGE
    finally:
        if sys.stdout is guarded:
            sys.stdout = stdout
