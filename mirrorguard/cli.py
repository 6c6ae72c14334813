"""The ``mirrorguard`` command: check, fix, rule, rules, train.

Exit codes follow ruff: 0 nothing found, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Sequence

from mirrorguard import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
_CODE = re.compile(r"^MG[0-9]{0,3}$")


class UsageError(Exception):
    """A bad argument or setting: reported on stderr, exit 2."""


def parse_codes(value: str, option: str) -> tuple[str, ...]:
    """``MG101,MG2`` -> ("MG101", "MG2"); rejects what could never match a code."""
    codes = tuple(part.strip().upper() for part in value.split(",") if part.strip())
    for code in codes:
        if code != "ALL" and not _CODE.match(code):
            raise UsageError(
                f"invalid code {code!r} in {option}: expected a code or prefix such as MG101 or MG1"
            )
    return tuple("MG" if code == "ALL" else code for code in codes)


def _check_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "check",
        help="report tf.distribute mistakes in Python files",
        description="Report tf.distribute scope and batch-size mistakes in Python files.",
    )
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="files or folders to check (default: the current folder)")
    parser.add_argument("--select", default="MG", help="codes or prefixes to report (default: MG)")
    parser.add_argument("--ignore", default="", help="codes or prefixes not to report")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="skip paths matching GLOB (repeatable)")
    parser.add_argument("--format", choices=("text", "json"), default="text", dest="output_format",
                        help="output format (default: text)")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only findings")
    return parser


def run_check(args: argparse.Namespace) -> int:
    from mirrorguard.checker import Settings, check_file
    from mirrorguard.checker.files import discover
    from mirrorguard.checker.report import write

    settings = Settings(
        select=parse_codes(args.select, "--select") or ("MG",),
        ignore=parse_codes(args.ignore, "--ignore"),
    )
    findings = []
    checked = 0
    status = EXIT_CLEAN
    for path in args.paths:
        try:
            files = list(discover([path], args.exclude))
        except FileNotFoundError:
            print(f"mirrorguard: error: {path}: no such file or directory", file=sys.stderr)
            status = EXIT_USAGE
            continue
        for file in files:
            checked += 1
            findings.extend(check_file(file, settings))
    write(findings, checked, sys.stdout, args.output_format, args.quiet)
    if status == EXIT_USAGE:
        return status
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def run_rule(args: argparse.Namespace) -> int:
    from mirrorguard.checker.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(args.code.upper())
    if rule is None:
        by_name = {r.name: r for r in RULES_BY_CODE.values()}
        rule = by_name.get(args.code)
    if rule is None:
        known = ", ".join(RULES_BY_CODE)
        raise UsageError(f"unknown rule {args.code!r}; known rules: {known}")
    sys.stdout.write(rule.render_docs())
    return EXIT_CLEAN


def run_rules(args: argparse.Namespace) -> int:
    from mirrorguard.checker.rules import ALL_RULES

    width = max(len(rule.name) for rule in ALL_RULES)
    for rule in ALL_RULES:
        sys.stdout.write(f"{rule.code}  {rule.name:<{width}}  {rule.summary}\n")
    return EXIT_CLEAN


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mirrorguard",
        description="Catch tf.distribute mistakes before they cost a GPU-day.",
    )
    parser.add_argument("--version", action="version", version=f"mirrorguard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _check_parser(sub).set_defaults(handler=run_check)
    from mirrorguard.fixer.cli import add_parser as add_fix_parser

    add_fix_parser(sub)
    rule = sub.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", help="a rule code (MG101) or name")
    rule.set_defaults(handler=run_rule)
    sub.add_parser("rules", help="list the rules").set_defaults(handler=run_rules)
    sub.add_parser("train", help="run the reference training script (see `mirrorguard train --help`)",
                   add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "train":
        # The reference script owns its own argument parser.
        from mirrorguard.train import main as train_main

        return train_main(argv[1:])
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed the message
        return EXIT_CLEAN if exc.code == 0 else EXIT_USAGE
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.handler(args)
    except UsageError as exc:
        print(f"mirrorguard: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_CLEAN


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
