"""Command-line wiring for ``mirrorguard fix`` (being written)."""

from __future__ import annotations


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("fix", help="apply safe fixes (being written)")
    parser.add_argument("paths", nargs="*", default=["."])
    parser.set_defaults(handler=lambda args: 2)
