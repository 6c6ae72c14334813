"""``mirrorguard fix [PATH ...]``: apply safe fixes, report what changed and what could not be fixed.

Exit codes, as ``ruff check --fix``: 0 when no finding is left (everything was
fixed, or there was nothing to fix), 1 when findings remain (not fixable
safely, unsafe fixes not asked for, or unreadable files), 2 for usage errors.
With ``--diff`` nothing is written: 0 when there is nothing to change and
nothing left, 1 otherwise.
"""

from __future__ import annotations

import argparse
import difflib
import sys

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FIX_SUFFIXES = (".py", ".pyi", ".ipynb")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "fix",
        help="move model building, compile and optimizers into the strategy scope",
        description=(
            "Apply safe fixes for MG101-MG104 (statements moved into `with strategy.scope():`), "
            "and with --unsafe-fixes also MG201. Reports what was fixed and, for every finding "
            "left, why. Exit 0: nothing left; 1: findings remain; 2: usage error."
        ),
    )
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="files or folders to fix (default: the current folder)")
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of the fixes and change nothing")
    parser.add_argument("--unsafe-fixes", action="store_true",
                        help="also apply fixes that change behaviour (MG201: scale the batch size)")
    parser.add_argument("--select", default="MG", help="codes or prefixes to fix and report (default: MG)")
    parser.add_argument("--ignore", default="", help="codes or prefixes to leave alone")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="skip paths matching GLOB (repeatable)")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only what is left unfixed")
    parser.set_defaults(handler=run_fix)


def run_fix(args: argparse.Namespace) -> int:
    from mirrorguard.checker import Settings
    from mirrorguard.checker.files import discover
    from mirrorguard.cli import parse_codes
    from mirrorguard.fixer.files import fix_path

    settings = Settings(
        select=parse_codes(args.select, "--select") or ("MG",),
        ignore=parse_codes(args.ignore, "--ignore"),
    )
    report = sys.stderr if args.diff else sys.stdout
    status = EXIT_CLEAN
    fixed = left = changed = files = 0
    for path in args.paths:
        try:
            found = list(discover([path], args.exclude, suffixes=FIX_SUFFIXES))
        except FileNotFoundError:
            print(f"mirrorguard: error: {path}: no such file or directory", file=sys.stderr)
            status = EXIT_USAGE
            continue
        for file in found:
            files += 1
            outcome = fix_path(file, settings, unsafe=args.unsafe_fixes, write=not args.diff)
            if outcome.skipped is not None:
                for finding in outcome.findings:
                    left += 1
                    why = finding.message if finding.code == "MG000" else outcome.skipped
                    print(_line(finding, f"not fixed: {why}"), file=report)
                continue
            result = outcome.result
            if outcome.changed:
                changed += 1
                if args.diff:
                    _write_diff(file, result.original, result.text)
            if not args.quiet:
                verb = "fixable" if args.diff else "fixed"
                for finding in result.fixed:
                    print(_line(finding, verb), file=report)
            fixed += len(result.fixed)
            for finding, why in result.remaining:
                left += 1
                print(_line(finding, f"not fixed: {why}"), file=report)
    if not args.quiet or left:
        print(_summary(fixed, left, changed, files, args.diff), file=report)
    if status == EXIT_USAGE:
        return status
    if left or (args.diff and changed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _line(finding, what: str) -> str:
    cell = f"cell {finding.cell}:" if getattr(finding, "cell", None) else ""
    return f"{finding.path}:{cell}{finding.line}:{finding.column}: {finding.code} {what}"


def _summary(fixed: int, left: int, changed: int, files: int, diff: bool) -> str:
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    if diff:
        head = f"Would fix {plural(fixed, 'finding')} in {plural(changed, 'file')}"
    else:
        head = f"Fixed {plural(fixed, 'finding')} in {plural(changed, 'file')}"
    return f"{head} ({plural(files, 'file')} checked); {left} left."


def _write_diff(path: str, before: str, after: str) -> None:
    from mirrorguard.fixer.lines import split_lines

    old, new = split_lines(before), split_lines(after)
    for line in difflib.unified_diff(old, new, fromfile=f"a/{path}", tofile=f"b/{path}"):
        sys.stdout.write(line if line.endswith(("\n", "\r")) else line + "\n")
