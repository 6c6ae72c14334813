"""What ``check`` and ``fix`` share: their options, the settings resolver, the files of a run.

Both commands take the same selection, file and analysis options and resolve
settings in one place (:class:`~mirrorguard.checker.resolver.SettingsResolver`),
so ``fix`` sees exactly what ``check`` reports.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from typing import Sequence

from mirrorguard.cli.exit_codes import EXIT_CLEAN, EXIT_USAGE, UsageError, error, warning


class Parser(argparse.ArgumentParser):
    """argparse, plus a "did you mean" for an unknown option, as git and ruff give one, and a
    description worked out only when help is shown (``describe``: a function returning it), so
    that building the parser imports nothing a run does not need."""

    def __init__(self, *args, describe=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._describe = describe

    def format_help(self) -> str:
        if self._describe is not None:
            self.description, self._describe = self._describe(), None
        return super().format_help()

    def error(self, message: str):  # type: ignore[override]
        match = re.match(r"unrecognized arguments: (.*)", message)
        if match:
            known = sorted(_option_strings(self))
            hints = []
            for given in match.group(1).split():
                option = given.split("=", 1)[0]
                if option.startswith("-"):
                    close = difflib.get_close_matches(option, known, n=1, cutoff=0.6)
                    if close:
                        hints.append(f"{option}: did you mean {close[0]}?")
            if hints:
                message += "\n  " + "\n  ".join(hints)
        super().error(message)


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every option of ``parser`` and its subcommands (the top parser reports their leftovers)."""
    found = set()
    for action in parser._actions:
        found.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _option_strings(sub)
    return found


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
    rules.add_argument("--ignore", help="codes or prefixes not to report (replaces `ignore` from the configuration)")
    rules.add_argument("--extend-ignore", default="",
                       help="codes or prefixes not to report, on top of the configuration's `ignore`")
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
                       help="the name of the file read from standard input (`-`): its settings, the "
                            "modules it imports, and what the output calls it")
    files.add_argument("--show-files", action="store_true",
                       help="print the files a run would check, and check nothing")
    files.add_argument("--show-settings", action="store_true",
                       help="print the settings that apply to the first file, and check nothing")
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


# -- settings and files ---------------------------------------------------------------------------

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
                                extend_exclude=args.extend_exclude, respect_noqa=respect_noqa,
                                extend_ignore=parse_codes(args.extend_ignore, "--extend-ignore"))
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def collect_files(args: argparse.Namespace, resolver, suffixes=None) -> tuple[list[str], bool, int]:
    """(files to check, whether `-` was given, status): missing paths are reported, the rest goes on.

    A path given that yields no file (a folder or file that ``exclude`` covers,
    a folder with no Python file) is named in a warning, as ruff warns that it
    found no Python files: a run that checked nothing must not read as a pass.
    """
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
        found = 0
        try:
            for file in discover([path], suffixes=suffixes or SOURCE_SUFFIXES, excluded=resolver.excluded,
                                 gitignore=gitignore):
                found += 1
                if file not in seen:
                    seen.add(file)
                    files.append(file)
        except FileNotFoundError:
            error(f"{path}: no such file or directory")
            status = EXIT_USAGE
            continue
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
        if not found:
            if resolver.excluded(path):
                warning(f"{path}: not checked: the `exclude` setting covers it "
                        f"(`--show-settings {path}` shows the globs)")
            else:
                warning(f"{path}: no Python files or notebooks found to check")
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


def show_files(files: Sequence[str], stdin: bool, args: argparse.Namespace) -> int:
    for file in files:
        print(file)
    if stdin:
        print(stdin_name(args))
    return EXIT_CLEAN


def show_settings(files: Sequence[str], resolver, args: argparse.Namespace) -> int:
    """The settings of the first file (as ruff's ``--show-settings``): where they come from, what they say."""
    from mirrorguard.checker.config import ConfigError

    first = args.stdin_filename if args.stdin_filename else (files[0] if files else (args.paths or ["."])[0])
    try:
        config = resolver.config_for(first)
        settings = resolver.settings_for(first)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    rows = [
        ("file", first),
        ("configuration", config.path or "(none: defaults)"),
        ("select", ", ".join(settings.select)),
        ("ignore", ", ".join(settings.ignore) or "(none)"),
        ("exclude", ", ".join(resolver.exclude_patterns(first)) or "(none)"),
        ("strategy-names", ", ".join(settings.extra_strategy_names) or "(none)"),
        ("model-factories", ", ".join(settings.extra_model_factories) or "(none)"),
        ("respect-gitignore", str(args.respect_gitignore).lower()),
        ("cross-file", str(args.cross_file).lower()),
    ]
    width = max(len(key) for key, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    return EXIT_CLEAN


# -- noqa comments and source texts ---------------------------------------------------------------

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
        for where, text in source_texts(path, data):
            for line, code in sources.noqa_comment_codes(text):
                if code.startswith("MG"):
                    message = unknown_code_message(code, "`# noqa`")
                    if message is not None:
                        problems.append(f"{path}:{where}{line}: {message}")
    return problems


def source_texts(path: str, data: bytes) -> list[tuple[str, str]]:
    """("cell N:" or "", text) for each piece of Python in the file, read as the check reads it."""
    if path.endswith(".ipynb"):
        from mirrorguard.checker.notebooks import BrokenNotebook, code_cells

        try:
            cells = code_cells(data) or []
        except BrokenNotebook:
            return []
        return [(f"cell {number}:", cell) for number, cell in enumerate(cells, start=1)]
    from mirrorguard.checker import source as sources

    decoded = sources.decode_leniently(data)
    return [] if isinstance(decoded, sources.Unreadable) else [("", decoded.text)]
