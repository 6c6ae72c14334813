"""The ``mirrorguard`` command: check, fix, rule, rules, train.

Exit codes follow ruff: 0 nothing found, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from mirrorguard import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A bad argument or setting: reported on stderr, exit 2."""


def parse_codes(value: str, option: str) -> tuple[str, ...]:
    """``MG101,MG2`` -> ("MG101", "MG2"); rejects what could never match a code."""
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


def _check_parser(sub) -> argparse.ArgumentParser:
    from mirrorguard.checker.report import FORMATS

    parser = sub.add_parser(
        "check",
        help="report tf.distribute mistakes in Python files and notebooks",
        description="Report tf.distribute scope and batch-size mistakes in Python files and notebooks. "
                    "Settings come from [tool.mirrorguard] in the nearest pyproject.toml above the paths; "
                    "flags override them.",
    )
    parser.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                        help="files or folders to check (default: the current folder)")
    rules = parser.add_argument_group("rule selection")
    rules.add_argument("--select", help="codes or prefixes to report, comma-separated (default: all rules "
                                        "on by default; ALL for every rule)")
    rules.add_argument("--extend-select", default="", help="codes or prefixes to report on top of --select")
    rules.add_argument("--ignore", help="codes or prefixes not to report")
    files = parser.add_argument_group("file selection")
    files.add_argument("--exclude", action="append", metavar="GLOB",
                       help="skip paths matching GLOB (repeatable; replaces `exclude` from the configuration)")
    files.add_argument("--extend-exclude", action="append", default=[], metavar="GLOB",
                       help="skip paths matching GLOB, on top of the configuration's `exclude`")
    names = parser.add_argument_group("your own helpers")
    names.add_argument("--strategy-names", metavar="NAMES",
                       help="comma-separated names of your functions that return a tf.distribute strategy")
    names.add_argument("--model-factories", metavar="NAMES",
                       help="comma-separated names of your functions that return a Keras model")
    config = parser.add_argument_group("configuration")
    config.add_argument("--config", metavar="PYPROJECT",
                        help="read [tool.mirrorguard] from this file instead of looking for one")
    config.add_argument("--isolated", action="store_true", help="ignore configuration files")
    run = parser.add_argument_group("run")
    run.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                     help="processes to use (default: the machine's cores)")
    run.add_argument("--no-cross-file", dest="cross_file", action="store_false",
                     help="judge each file alone, not helpers imported from other checked modules")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=FORMATS, default="text", dest="output_format",
                        help="output format (default: text)")
    output.add_argument("--statistics", action="store_true", help="count findings by code")
    output.add_argument("--quiet", "-q", action="store_true", help="print only findings")
    return parser


def _load_config(args: argparse.Namespace):
    from mirrorguard.checker.config import Config, ConfigError, find_config, load_config

    try:
        if args.isolated:
            return Config()
        path = args.config or find_config(args.paths)
        if args.config and not os.path.isfile(args.config):
            raise UsageError(f"--config {args.config}: no such file")
        return load_config(path) if path else Config()
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _settings(args: argparse.Namespace, config):
    """Command-line flags over the configuration file over the defaults."""
    from mirrorguard.checker import Settings
    from mirrorguard.checker.config import ConfigError, parse_names, split_list
    from mirrorguard.checker.rules import ALL_RULES

    extend = config.extend_select + parse_codes(args.extend_select, "--extend-select")
    ignore = parse_codes(args.ignore, "--ignore") if args.ignore is not None else (config.ignore or ())
    if args.select is not None and parse_codes(args.select, "--select"):
        select = parse_codes(args.select, "--select")
    elif config.select:
        select = config.select
    else:
        # Every rule but the opinionated ones, which only extend-select (or an
        # explicit select) turns on.
        select = ("MG",)
        ignore += tuple(rule.code for rule in ALL_RULES if not rule.default_enabled
                        and not any(rule.code.startswith(p) for p in extend))
    select += extend
    try:
        strategies = (parse_names(split_list(args.strategy_names), "--strategy-names")
                      if args.strategy_names is not None else config.strategy_names or ())
        factories = (parse_names(split_list(args.model_factories), "--model-factories")
                     if args.model_factories is not None else config.model_factories or ())
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    return Settings(select=select, ignore=ignore, extra_strategy_names=strategies,
                    extra_model_factories=factories)


def _per_file(settings, config):
    """A function from a path to its settings, with ``per-file-ignores`` applied."""
    import fnmatch
    from dataclasses import replace

    from mirrorguard.checker.config import relative_to

    if not config.per_file_ignores:
        return lambda path: settings
    cache: dict = {}

    def settings_for(path: str):
        relative = relative_to(path, config.root)
        codes = tuple(
            code
            for pattern, codes in config.per_file_ignores
            if fnmatch.fnmatch(relative, pattern)
            or ("/" not in pattern and fnmatch.fnmatch(relative.rsplit("/", 1)[-1], pattern))
            for code in codes
        )
        if not codes:
            return settings
        if codes not in cache:
            cache[codes] = replace(settings, ignore=settings.ignore + codes)
        return cache[codes]

    return settings_for


def _tree_root(paths: Sequence[str], config) -> str:
    """Where imported modules may come from: the configuration's folder, else
    the paths' common folder, widened to the current folder when inside it."""
    if config.root:
        return config.root
    cwd = os.getcwd()
    try:
        common = os.path.commonpath([os.path.abspath(p) for p in paths] or [cwd])
    except ValueError:
        return cwd
    if not os.path.isdir(common):
        common = os.path.dirname(common)
    return cwd if common == cwd or common.startswith(cwd.rstrip(os.sep) + os.sep) else common


def run_check(args: argparse.Namespace) -> int:
    from mirrorguard.checker.files import discover
    from mirrorguard.checker.report import write
    from mirrorguard.checker.runner import Runner, default_jobs

    config = _load_config(args)
    settings = _settings(args, config)
    exclude = list(args.exclude if args.exclude is not None else (config.exclude or ()))
    exclude += args.extend_exclude
    status = EXIT_CLEAN
    files: list[str] = []
    seen: set[str] = set()
    for path in args.paths:
        try:
            for file in discover([path], exclude, root=config.root):
                if file not in seen:
                    seen.add(file)
                    files.append(file)
        except FileNotFoundError:
            print(f"mirrorguard: error: {path}: no such file or directory", file=sys.stderr)
            status = EXIT_USAGE
    jobs = args.jobs or default_jobs()
    with Runner(jobs) as runner:
        results = runner.check(files, _per_file(settings, config), cross_file=args.cross_file,
                               root=_tree_root(args.paths, config))
    findings = []
    for result in results:
        if result.error is not None:
            print(f"mirrorguard: error: {result.path}: {result.error}", file=sys.stderr)
            status = EXIT_USAGE
        findings.extend(result.findings)
    if status != EXIT_USAGE:
        status = EXIT_FINDINGS if findings else EXIT_CLEAN
    write(findings, len(files), sys.stdout, args.output_format, args.quiet,
          show_statistics=args.statistics, side=sys.stderr, exit_code=status)
    return status


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
