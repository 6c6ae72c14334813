"""``mirrorguard fix [PATH ...]``: apply safe fixes, report what changed and what could not be fixed.

``fix`` takes ``check``'s selection, file, configuration and analysis options
and first runs the same check, so it reports exactly the findings ``check``
reports (cross-file ones included), each as fixed or not fixed with the reason.
The fixing itself is the library's (:func:`mirrorguard.fixer.files.fix_reported`);
this module parses the options and writes the report.

Exit codes, as ``ruff check --fix``: 0 when no finding is left (everything was
fixed, or there was nothing to fix), 1 when findings remain (not fixable
safely, unsafe fixes not asked for, or unreadable files), 2 for usage errors
and files that cannot be written (one line each; the other files are still
fixed). With ``--diff`` nothing is written: 0 when there is nothing to change
and nothing left, 1 otherwise. ``-`` fixes standard input and writes the
result to standard output (the report goes to standard error).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from typing import Iterable

from mirrorguard.cli.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, error
from mirrorguard.cli.options import (
    add_shared_options, collect_files, make_resolver, noqa_problems, read_stdin, settings_map, show_files,
    show_settings, stdin_name,
)


def code_ranges(codes: Iterable[str]) -> str:
    """``MG101, MG102, MG103, MG201`` -> ``MG101-MG103, MG201``: consecutive codes as a range."""
    runs: list[list[str]] = []
    for code in sorted(codes):
        if runs and runs[-1][-1][:-1] == code[:-1] and int(code[-1]) == int(runs[-1][-1][-1]) + 1:
            runs[-1].append(code)
        else:
            runs.append([code])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


def fix_description() -> str:
    """What `fix` mends, read from the rules registry: which rules have a safe fix, which an unsafe one."""
    from mirrorguard.checker.rules import ALL_RULES

    safe = code_ranges(rule.code for rule in ALL_RULES if rule.fix_safety == "safe")
    unsafe = code_ranges(rule.code for rule in ALL_RULES if rule.fix_safety == "unsafe")
    text = f"Apply the safe fixes ({safe or 'none'})"
    if unsafe:
        text += f", and with --unsafe-fixes also {unsafe}"
    return (text + ". Takes the same options as `mirrorguard check` and reports the findings it reports, "
            "each fixed or, with the reason, not. Exit 0: nothing left; 1: findings remain; "
            "2: usage error or a file that cannot be written.")


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "fix",
        help="move model building, compile and optimizers into the strategy scope",
        describe=fix_description,  # the rules registry is read only for --help
        allow_abbrev=False,
    )
    add_shared_options(parser)
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of the fixes and change nothing")
    parser.set_defaults(handler=run_fix)
    return parser


CHECK_FAILED = "the check of this file failed (see the error above), so it is left as it is"


def run_fix(args: argparse.Namespace) -> int:
    from mirrorguard.checker.runner import Runner, default_jobs
    from mirrorguard.fixer.files import FIX_SUFFIXES, fix_reported

    resolver = make_resolver(args)
    files, stdin, status = collect_files(args, resolver, suffixes=FIX_SUFFIXES)
    if args.show_files:
        return max(status, show_files(files, stdin, args))
    if args.show_settings:
        return max(status, show_settings(files, resolver, args))
    settings = settings_map(files, resolver)
    for problem in noqa_problems(files):
        error(problem)
        status = EXIT_USAGE
    if stdin:
        return max(status, _fix_stdin(args, resolver))
    # First what `check` reports: the fixer then accounts for every one of these.
    with Runner(args.jobs or default_jobs()) as runner:
        results = runner.check(files, settings.__getitem__, cross_file=args.cross_file,
                               root=resolver.tree_root(args.paths))
    report = sys.stderr if args.diff else sys.stdout
    fixed = left = changed = 0
    for result in results:
        if result.error is not None:
            error(f"{result.path}: {result.error}")
            status = EXIT_USAGE
            # A rule failed on it: what the others found is not the whole story, so nothing moves.
            for finding in result.findings:
                print(_line(finding, f"not fixed: {CHECK_FAILED}"), file=report)
            left += len(result.findings)
            continue
        if not result.findings:
            continue  # nothing to fix: the file is not even read again
        # Cross-file findings need the summaries they were found with.
        file_settings = result.settings or settings[result.path]
        outcome = fix_reported(result.path, result.findings, file_settings, unsafe=args.unsafe_fixes,
                               write=not args.diff)
        if outcome.problem is not None:
            error(outcome.problem)
            status = EXIT_USAGE
        if args.diff and outcome.changed:
            _write_diff(result.path, outcome.before, outcome.after)
        changed += outcome.changed
        fixed += len(outcome.fixed)
        left += len(outcome.left)
        if not args.quiet:
            verb = "fixable" if args.diff else "fixed"
            for finding in outcome.fixed:
                print(_line(finding, verb), file=report)
        for finding, why in outcome.left:
            print(_line(finding, f"not fixed: {why}"), file=report)
    if not args.quiet or left:
        print(_summary(fixed, left, changed, len(files), args.diff), file=report)
    if status == EXIT_USAGE:
        return status
    if left or (args.diff and changed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _fix_stdin(args: argparse.Namespace, resolver) -> int:
    """Fix standard input; the result (the input itself when nothing changes) goes to standard output."""
    from mirrorguard.fixer.files import fix_bytes

    from mirrorguard.checker.core import RuleFailed

    name = stdin_name(args)
    data = read_stdin()
    try:
        outcome = fix_bytes(data, name, resolver.settings_for(args.stdin_filename or name), unsafe=args.unsafe_fixes)
    except RuleFailed as failed:
        if not args.diff:  # an editor replaces its buffer with what it reads back: give it unchanged
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        error(f"{name}: {failed}")
        return EXIT_USAGE
    if outcome.skipped is not None:
        sys.stdout.buffer.write(outcome.data)
        sys.stdout.flush()
        print(f"{name}: not fixed: {outcome.skipped}", file=sys.stderr)
        return EXIT_FINDINGS
    if args.diff:
        if outcome.changed:
            _write_diff(name, outcome.before, outcome.after)
    else:
        sys.stdout.buffer.write(outcome.data)
        sys.stdout.flush()
    if not args.quiet:
        for finding in outcome.fixed:
            print(_line(finding, "fixable" if args.diff else "fixed"), file=sys.stderr)
    for finding, why in outcome.left:
        print(_line(finding, f"not fixed: {why}"), file=sys.stderr)
    if outcome.left or (args.diff and outcome.changed):
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
