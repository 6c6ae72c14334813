"""The ``mirrorguard`` command: check, fix, rule, rules, train.

Exit codes follow ruff: 0 nothing found, 1 findings, 2 usage or internal error.
``check`` and ``fix`` take the same selection, file and analysis options and
resolve settings in one place (:class:`~mirrorguard.checker.resolver.SettingsResolver`),
so ``fix`` sees exactly what ``check`` reports.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import Sequence

from mirrorguard import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A bad argument or setting: reported on stderr, exit 2."""


def error(message: str) -> None:
    print(f"mirrorguard: error: {message}", file=sys.stderr)


def parse_codes(value: str, option: str) -> tuple[str, ...]:
    """``MG101,MG2`` -> ("MG101", "MG2"); rejects what could never match a code, and unknown codes."""
    from mirrorguard.checker.config import ConfigError, parse_codes as parse, split_list

    try:
        return parse(split_list(value), option)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"invalid value {value!r}: expected a whole number of processes, at least 1")
    return jobs


def add_shared_options(parser: argparse.ArgumentParser) -> None:
    """The options ``check`` and ``fix`` share: what to report, in which files, with which helpers."""
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="files or folders (default: the current folder); `-` reads standard input")
    rules = parser.add_argument_group("rule selection")
    rules.add_argument("--select", help="codes or prefixes to report, comma-separated (default: all rules "
                                        "on by default; ALL for every rule)")
    rules.add_argument("--extend-select", default="", help="codes or prefixes to report on top of --select")
    rules.add_argument("--ignore", help="codes or prefixes not to report")
    rules.add_argument("--per-file-ignores", action="append", metavar="GLOB:CODES",
                       help="codes to ignore in files matching GLOB, as flake8 spells it (tests/*:MG1,MG2; "
                            "repeatable; replaces `per-file-ignores` from the configuration)")
    files = parser.add_argument_group("file selection")
    files.add_argument("--exclude", action="append", metavar="GLOB",
                       help="skip paths matching GLOB (repeatable; replaces `exclude` from the configuration)")
    files.add_argument("--extend-exclude", action="append", default=[], metavar="GLOB",
                       help="skip paths matching GLOB, on top of the configuration's `exclude`")
    files.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false",
                       help="also check files that .gitignore excludes")
    files.add_argument("--stdin-filename", metavar="PATH",
                       help="the name of the file read from standard input (`-`): its settings and "
                            "what the output calls it")
    names = parser.add_argument_group("your own helpers")
    names.add_argument("--strategy-names", metavar="NAMES",
                       help="comma-separated names of variables holding your tf.distribute strategy, "
                            "or of your functions returning one")
    names.add_argument("--model-factories", metavar="NAMES",
                       help="comma-separated names of your functions that return a Keras model")
    config = parser.add_argument_group("configuration")
    config.add_argument("--config", metavar="FILE",
                        help="read settings from this file (a pyproject.toml's [tool.mirrorguard], or "
                             "a mirrorguard.toml) for every path, instead of the nearest one of each file")
    config.add_argument("--isolated", action="store_true", help="ignore configuration files")
    run = parser.add_argument_group("run")
    run.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                     help="processes to use (default: the machine's cores)")
    run.add_argument("--no-cross-file", dest="cross_file", action="store_false",
                     help="judge each file alone, not helpers imported from other checked modules")
    run.add_argument("--unsafe-fixes", action="store_true",
                     help="with fixing: also apply fixes that change behaviour (MG201: scale the batch size)")
    run.add_argument("--quiet", "-q", action="store_true", help="print only findings")


def _check_parser(sub) -> argparse.ArgumentParser:
    from mirrorguard.checker.report import FORMATS

    parser = sub.add_parser(
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
    output = parser.add_argument_group("output")
    output.add_argument("--output-format", choices=FORMATS, default=None, dest="output_format",
                        help="output format (default: text; full adds the source line and a caret)")
    output.add_argument("--format", choices=FORMATS, dest="output_format", help="the same as --output-format")
    output.add_argument("--show-source", action="store_true", help="the same as --output-format full")
    output.add_argument("--output-file", "-o", metavar="PATH", help="write the output to PATH")
    output.add_argument("--statistics", action="store_true", help="count findings by code")
    output.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.set_defaults(handler=run_check)
    return parser


# -- settings and files, shared with fix --------------------------------------------------------

def make_resolver(args: argparse.Namespace, respect_noqa: bool = True):
    """The settings resolver for ``args`` (flags over each file's configuration)."""
    from mirrorguard.checker.config import Config, ConfigError, parse_names, parse_per_file_ignores, split_list
    from mirrorguard.checker.resolver import SettingsResolver

    select = parse_codes(args.select, "--select") if args.select is not None else None
    try:
        flags = Config(
            select=select or None,
            ignore=parse_codes(args.ignore, "--ignore") if args.ignore is not None else None,
            extend_select=parse_codes(args.extend_select, "--extend-select"),
            exclude=tuple(args.exclude) if args.exclude is not None else None,
            per_file_ignores=(parse_per_file_ignores(args.per_file_ignores, "--per-file-ignores")
                              if args.per_file_ignores is not None else None),
            strategy_names=(parse_names(split_list(args.strategy_names), "--strategy-names")
                            if args.strategy_names is not None else None),
            model_factories=(parse_names(split_list(args.model_factories), "--model-factories")
                             if args.model_factories is not None else None),
        )
        return SettingsResolver(flags, config=args.config, isolated=args.isolated,
                                extend_exclude=args.extend_exclude, respect_noqa=respect_noqa)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def collect_files(args: argparse.Namespace, resolver, suffixes=None) -> tuple[list[str], bool, int]:
    """(files to check, whether `-` was given, status): missing paths are reported, the rest goes on."""
    from mirrorguard.checker.config import ConfigError
    from mirrorguard.checker.files import SOURCE_SUFFIXES, STDIN, discover
    from mirrorguard.checker.gitignore import GitIgnore

    gitignore = GitIgnore() if args.respect_gitignore else None
    status = EXIT_CLEAN
    files: list[str] = []
    seen: set[str] = set()
    stdin = False
    for path in args.paths:
        if path == STDIN:
            stdin = True
            continue
        try:
            for file in discover([path], suffixes=suffixes or SOURCE_SUFFIXES, excluded=resolver.excluded,
                                 gitignore=gitignore):
                if file not in seen:
                    seen.add(file)
                    files.append(file)
        except FileNotFoundError:
            error(f"{path}: no such file or directory")
            status = EXIT_USAGE
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
    if args.stdin_filename and not stdin:
        raise UsageError("--stdin-filename names the file read from standard input: give `-` as the path")
    return files, stdin, status


def settings_map(files: Sequence[str], resolver) -> dict:
    """Each file's settings, resolved before any work starts: a bad configuration stops the run."""
    from mirrorguard.checker.config import ConfigError

    try:
        return {file: resolver.settings_for(file) for file in files}
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def stdin_name(args: argparse.Namespace) -> str:
    from mirrorguard.checker.files import display_path

    return display_path(args.stdin_filename) if args.stdin_filename else "-"


def read_stdin() -> bytes:
    return sys.stdin.buffer.read()


def check_bytes(data: bytes, path: str, settings) -> list:
    """Findings for one file's content (standard input), notebook or Python by its name."""
    from mirrorguard.checker import source as sources
    from mirrorguard.checker.core import check_source, unreadable_findings

    if path.endswith(".ipynb"):
        from mirrorguard.checker.notebooks import check_notebook_source

        return check_notebook_source(data, path, settings)
    decoded = sources.decode(data)
    if isinstance(decoded, sources.Unreadable):
        return unreadable_findings(path, decoded, settings)
    return check_source(decoded.text, path, settings)


def noqa_problems(files: Sequence[str], contents: dict[str, bytes] | None = None) -> list[str]:
    """``path:line: unknown code ...`` for each ``# noqa: MG...`` naming no rule.

    Codes of other tools (``# noqa: E501``) are theirs and never questioned.
    """
    from mirrorguard.checker import source as sources
    from mirrorguard.checker.config import unknown_code_message

    problems = []
    for path in files:
        data = (contents or {}).get(path)
        if data is None:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue  # reported as MG000 by the check
        if b"mg" not in data.lower() or b"noqa" not in data.lower():
            continue
        for where, text in _noqa_texts(path, data):
            for line, code in sources.noqa_comment_codes(text):
                if code.startswith("MG"):
                    message = unknown_code_message(code, "`# noqa`")
                    if message is not None:
                        problems.append(f"{path}:{where}{line}: {message}")
    return problems


def _noqa_texts(path: str, data: bytes) -> list[tuple[str, str]]:
    """("cell N:" or "", text) for each piece of Python in the file."""
    if path.endswith(".ipynb"):
        from mirrorguard.checker.notebooks import BrokenNotebook, code_cells

        try:
            cells = code_cells(data) or []
        except BrokenNotebook:
            return []
        return [(f"cell {number}:", cell) for number, cell in enumerate(cells, start=1)]
    from mirrorguard.checker import source as sources

    decoded = sources.decode(data)
    return [] if isinstance(decoded, sources.Unreadable) else [("", decoded.text)]


# -- check ----------------------------------------------------------------------------------------

def run_check(args: argparse.Namespace) -> int:
    if args.fix or args.diff:
        from mirrorguard.fixer.cli import run_fix

        return run_fix(args)
    from mirrorguard.checker.runner import Runner, default_jobs

    resolver = make_resolver(args)
    files, stdin, status = collect_files(args, resolver)
    settings = settings_map(files, resolver)
    contents: dict[str, bytes] = {}
    findings = []
    if stdin and args.add_noqa:
        raise UsageError("--add-noqa edits files in place; it cannot edit standard input (`-`)")
    if stdin:
        name = stdin_name(args)
        contents[name] = read_stdin()
        findings += check_bytes(contents[name], name, resolver.settings_for(args.stdin_filename or name))
    with Runner(args.jobs or default_jobs()) as runner:
        results = runner.check(files, settings.__getitem__, cross_file=args.cross_file,
                               root=resolver.tree_root(args.paths))
    for result in results:
        if result.error is not None:
            error(f"{result.path}: {result.error}")
            status = EXIT_USAGE
        findings.extend(result.findings)
    for problem in noqa_problems(files + list(contents), contents):
        error(problem)
        status = EXIT_USAGE
    if args.add_noqa:
        return _add_noqa(findings, files, status)
    if status != EXIT_USAGE:
        status = EXIT_FINDINGS if findings and not args.exit_zero else EXIT_CLEAN
    _write_output(args, findings, len(files) + stdin, status, contents)
    return status


def _write_output(args: argparse.Namespace, findings: list, files_checked: int, status: int,
                  contents: dict[str, bytes]) -> None:
    from mirrorguard.checker.report import use_colour, write

    output_format = "full" if args.show_source and args.output_format in (None, "text", "concise") else (
        args.output_format or "text")
    target = io.StringIO() if args.output_file else sys.stdout
    workspace = os.environ.get("GITHUB_WORKSPACE") or None
    write(findings, files_checked, target, output_format, args.quiet, show_statistics=args.statistics,
          side=sys.stderr, exit_code=status, colour=use_colour(target),
          source_lines=SourceLines(contents), workspace=workspace)
    if args.output_file:
        from mirrorguard.fixer.files import atomic_write

        try:
            atomic_write(args.output_file, target.getvalue().encode("utf-8"))
        except OSError as exc:
            raise UsageError(f"--output-file {args.output_file}: cannot write: {exc.strerror or exc}") from None


class SourceLines:
    """The lines of a checked file or notebook cell, read once, for ``--output-format full``."""

    def __init__(self, contents: dict[str, bytes]) -> None:
        self._contents = contents
        self._cache: dict[str, list[list[str]] | None] = {}

    def __call__(self, path: str, cell: int | None) -> list[str] | None:
        if path not in self._cache:
            self._cache[path] = self._read(path)
        pieces = self._cache[path]
        index = (cell or 1) - 1
        return pieces[index] if pieces is not None and 0 <= index < len(pieces) else None

    def _read(self, path: str) -> list[list[str]] | None:
        data = self._contents.get(path)
        if data is None:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError:
                return None
        import re

        texts = _noqa_texts(path, data)
        return [re.split(r"\r\n|\r|\n", text) for _, text in texts] or None


def _add_noqa(findings: list, files: Sequence[str], status: int) -> int:
    from mirrorguard.fixer.noqa import add_noqa

    added, edited, problems = add_noqa(findings)
    for problem in problems:
        error(problem)
        status = EXIT_USAGE
    print(f"Added {added} noqa comment{'s' if added != 1 else ''} to {edited} file{'s' if edited != 1 else ''}.")
    return status


# -- rule, rules, the parser ----------------------------------------------------------------------

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
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"mirrorguard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _check_parser(sub)
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
        error(str(exc))
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_CLEAN


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
