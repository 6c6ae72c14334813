"""``mirrorguard check [PATH ...]``: report findings, in text, full, json, sarif or github form.

Exit 0: nothing found; 1: findings; 2: a usage error, a path that does not
exist, or a bug of ours (one line each; the other files are still checked).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys

from mirrorguard.cli.exit_codes import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, UsageError, error, warning
from mirrorguard.cli.options import (
    add_shared_options, collect_files, make_resolver, noqa_problems, read_stdin, settings_map, show_files,
    show_settings, source_texts, stdin_name,
)

COLOUR_CHOICES = ("auto", "always", "never")


def add_parser(subparsers) -> argparse.ArgumentParser:
    from mirrorguard.checker.report import FORMATS

    parser = subparsers.add_parser(
        "check",
        allow_abbrev=False,
        help="report tf.distribute mistakes in Python files and notebooks",
        description="Report tf.distribute scope and batch-size mistakes in Python files and notebooks. "
                    "Each file takes the settings of the nearest mirrorguard.toml or pyproject.toml "
                    "[tool.mirrorguard] above it; flags override them.",
    )
    add_shared_options(parser)
    fixing = parser.add_argument_group("fixing")
    fixing.add_argument("--fix", action="store_true", help="apply safe fixes: the same as `mirrorguard fix`")
    fixing.add_argument("--diff", action="store_true",
                        help="print the fixes as a diff and change nothing: `mirrorguard fix --diff`")
    fixing.add_argument("--add-noqa", action="store_true",
                        help="add `# noqa: CODE` to each line with a finding, so the findings "
                             "stop being reported (existing code you will fix later)")
    fixing.add_argument("--show-fixes", action="store_true",
                        help="mark each finding `mirrorguard fix` can fix with [*], and count them by code")
    output = parser.add_argument_group("output")
    output.add_argument("--output-format", choices=FORMATS, default=None, dest="output_format",
                        help="output format (default: text; full adds the source line and a caret)")
    output.add_argument("--format", choices=FORMATS, dest="output_format", help="the same as --output-format")
    output.add_argument("--show-source", action="store_true", help="the same as --output-format full")
    output.add_argument("--output-file", "-o", metavar="PATH", help="write the output to PATH")
    output.add_argument("--statistics", action="store_true", help="count findings by code")
    output.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    output.add_argument("--color", "--colour", choices=COLOUR_CHOICES, default="auto", dest="color",
                        help="colour the text output: auto (a terminal, unless NO_COLOR is set or "
                             "TERM=dumb), always or never (default: auto)")
    parser.set_defaults(handler=run_check)
    return parser


def run_check(args: argparse.Namespace) -> int:
    if args.fix or args.diff:
        from mirrorguard.cli.fix import run_fix

        return run_fix(args)
    from mirrorguard.checker.runner import Runner, default_jobs

    resolver = make_resolver(args)
    files, stdin, status = collect_files(args, resolver)
    if args.show_files:
        return max(status, show_files(files, stdin, args))
    if args.show_settings:
        return max(status, show_settings(files, resolver, args))
    settings = settings_map(files, resolver)
    if stdin and args.add_noqa:
        raise UsageError("--add-noqa edits files in place; it cannot edit standard input (`-`)")
    contents: dict[str, bytes] = {}
    checked = list(files)
    if stdin:
        # Standard input is checked as the file it names would be, imports of
        # the tree around it included (editors call linters this way).
        name = stdin_name(args)
        contents[name] = read_stdin()
        settings[name] = resolver.settings_for(args.stdin_filename or name)
        checked.append(name)
    tree_paths = [args.stdin_filename if path == "-" and args.stdin_filename else path for path in args.paths]
    with Runner(args.jobs or default_jobs()) as runner:
        results = runner.check(checked, settings.__getitem__, cross_file=args.cross_file,
                               root=resolver.tree_root(tree_paths), contents=contents)
        fixability = None
        if not args.add_noqa and (args.show_fixes or args.output_format == "json"):
            # The marks and counts, and json's `fix`, are what `fix` does: the fixer runs on each
            # file with a fixable finding (libcst, several times a plain check's cost), so only
            # when they are asked for.
            fixability = fixability_of(runner, results, settings, contents, resolver, args)
    findings = []
    for result in results:
        if result.error is not None:
            error(f"{result.path}: {result.error}")
            status = EXIT_USAGE
        if result.warning is not None:
            warning(result.warning)
        findings.extend(result.findings)
    for problem in noqa_problems(files + list(contents), contents):
        error(problem)
        status = EXIT_USAGE
    if args.add_noqa:
        return _add_noqa(findings, status)
    if status != EXIT_USAGE:
        status = EXIT_FINDINGS if findings and not args.exit_zero else EXIT_CLEAN
    _write_output(args, findings, len(checked), status, contents, fixability)
    return status


def fixability_of(runner, results, settings, contents: dict[str, bytes], resolver, args: argparse.Namespace):
    """How `mirrorguard fix` would fix each finding: "safe" (`fix` fixes it), "unsafe" (only
    `fix --unsafe-fixes` does) or None. Found by running the fixer as `fix --diff` does (with
    the run's processes), so the "N fixable" that check prints is what `fix` then fixes.

    The fixer (and libcst) is loaded only for files with a finding whose rule has a fix; a
    file gets the unsafe pass only when it has a finding whose fix is unsafe.
    """
    from mirrorguard.checker.report import rule_fixability

    items, data = [], []
    for result in results:
        if result.error is not None:
            continue  # its check failed (reported): `fix` leaves such a file alone, so nothing is fixable
        wanted = {rule_fixability(finding) for finding in result.findings}
        if wanted & {"safe", "unsafe"}:
            path = result.path
            if path in contents:
                file_settings = resolver.settings_for(args.stdin_filename or path)
            else:
                file_settings = result.settings or settings[path]
            items.append((path, result.findings, file_settings, "safe" in wanted, "unsafe" in wanted))
            data.append(contents.get(path))
    kinds: dict[int, str] = {}
    if not items:
        return lambda finding: None
    from mirrorguard.fixer.files import fixable_chunk, fixable_indexes

    on_disk = [i for i, content in enumerate(data) if content is None]
    answers = dict(zip(on_disk, runner.map(fixable_chunk, [items[i] for i in on_disk])))
    for i, content in enumerate(data):
        if content is not None:  # standard input, as `fix -` fixes it
            path, reported, file_settings, safe_too, unsafe_too = items[i]
            answers[i] = fixable_indexes(path, reported, file_settings, safe_too=safe_too,
                                         unsafe_too=unsafe_too, data=content)
    for i, (safe, unsafe) in answers.items():
        reported = items[i][1]
        kinds.update((id(reported[j]), "safe") for j in safe)
        kinds.update((id(reported[j]), "unsafe") for j in unsafe)
    return lambda finding: kinds.get(id(finding))


def colour_wanted(choice: str, stream, environ=None) -> bool:
    from mirrorguard.checker.report import use_colour

    if choice == "always":
        return True
    if choice == "never":
        return False
    return use_colour(stream, environ)


def _write_output(args: argparse.Namespace, findings: list, files_checked: int, status: int,
                  contents: dict[str, bytes], fixability=None) -> None:
    from mirrorguard.checker.report import write

    output_format = "full" if args.show_source and args.output_format in (None, "text", "concise") else (
        args.output_format or "text")
    target = io.StringIO() if args.output_file else sys.stdout
    workspace = os.environ.get("GITHUB_WORKSPACE") or None
    write(findings, files_checked, target, output_format, args.quiet, show_statistics=args.statistics,
          side=sys.stderr, exit_code=status, colour=colour_wanted(args.color, target),
          source_lines=SourceLines(contents), workspace=workspace, show_fixes=args.show_fixes,
          unsafe_fixes=args.unsafe_fixes, fixability=fixability)
    if args.output_file:
        from mirrorguard.fixer.files import atomic_write

        try:
            atomic_write(args.output_file, target.getvalue().encode("utf-8"))
        except OSError as exc:
            raise UsageError(f"--output-file {args.output_file}: cannot write: {exc.strerror or exc}") from None


class SourceLines:
    """The lines of a checked file or notebook cell, read once, for ``--output-format full``;
    for a notebook, also where each cell line stands in the file (``github``)."""

    def __init__(self, contents: dict[str, bytes]) -> None:
        self._contents = contents
        self._cache: dict[str, list[list[str]] | None] = {}
        self._file_lines: dict[str, list[list[int]] | None] = {}

    def __call__(self, path: str, cell: int | None) -> list[str] | None:
        if path not in self._cache:
            self._cache[path] = self._read(path)
        pieces = self._cache[path]
        index = (cell or 1) - 1
        return pieces[index] if pieces is not None and 0 <= index < len(pieces) else None

    def file_line(self, path: str, cell: int, line: int) -> int | None:
        """The line of the notebook file that holds ``line`` of code cell ``cell``, if known."""
        from mirrorguard.checker.sarif import notebook_file_line, notebook_source_lines

        if path not in self._file_lines:
            self._file_lines[path] = notebook_source_lines(path, self._contents.get(path))
        return notebook_file_line(self._file_lines[path], cell, line)

    def _data(self, path: str) -> bytes | None:
        data = self._contents.get(path)
        if data is None:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                return None
        return data

    def _read(self, path: str) -> list[list[str]] | None:
        data = self._data(path)
        if data is None:
            return None
        texts = source_texts(path, data)
        return [re.split(r"\r\n|\r|\n", text) for _, text in texts] or None


def _add_noqa(findings: list, status: int) -> int:
    from mirrorguard.fixer.noqa import add_noqa

    added, edited, problems, notes = add_noqa(findings)
    for problem in problems:
        error(problem)
        status = EXIT_USAGE
    for note in notes:
        print(f"mirrorguard: note: {note}", file=sys.stderr)
    if notes and status != EXIT_USAGE:
        status = EXIT_FINDINGS  # the notebooks' findings are still there
    print(f"Added {added} noqa comment{'s' if added != 1 else ''} to {edited} file{'s' if edited != 1 else ''}.")
    return status
