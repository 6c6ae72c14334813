"""``mirrorguard rule CODE`` prints a rule's documentation; ``mirrorguard rules`` lists them."""

from __future__ import annotations

import argparse
import sys

from mirrorguard.cli.exit_codes import EXIT_CLEAN, UsageError


def add_parsers(subparsers) -> None:
    rule = subparsers.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", help="a rule code (MG101) or name")
    rule.set_defaults(handler=run_rule)
    subparsers.add_parser("rules", help="list the rules").set_defaults(handler=run_rules)


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
