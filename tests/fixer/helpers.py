"""Shared checks for fixer tests: what every fix must guarantee."""

from __future__ import annotations

import io
import textwrap
import tokenize
from collections import Counter

import libcst as cst

from mirrorguard.checker import check_source
from mirrorguard.fixer.fix import FixResult, fix_source

_LAYOUT = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
# What a fix may add: `with <strategy>.scope():` and `* <strategy>.num_replicas_in_sync`.
ADDED_TOKENS = {"with", ".", "scope", "(", ")", ":", "*", "num_replicas_in_sync"}


def tokens(text: str) -> Counter:
    found = Counter()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in _LAYOUT:
            found[token.string] += 1
    return found


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def assert_sound_fix(before: str, result: FixResult, *, unsafe: bool = False,
                     strategy_names=("strategy",)) -> None:
    """The guarantees: parses, drops no token, adds only scope syntax, idempotent, findings gone."""
    after = result.text
    cst.parse_module(after)
    compile(after, "<fixed>", "exec")
    old, new = tokens(before), tokens(after)
    assert not old - new, f"tokens dropped: {old - new}"
    extra = set(new - old)
    assert extra <= ADDED_TOKENS | set(strategy_names), f"unexpected tokens added: {extra}"
    assert fix_source(after, unsafe=unsafe).text == after, "fixing twice differs from fixing once"
    before_keys = Counter((f.code, f.message) for f in check_source(before))
    after_keys = Counter((f.code, f.message) for f in check_source(after))
    assert not after_keys - before_keys, f"new findings: {after_keys - before_keys}"
    assert sum((before_keys - after_keys).values()) == len(result.fixed)
    assert [(f.code, f.message) for f, _ in result.remaining] == [
        (f.code, f.message) for f in check_source(after)
    ]
