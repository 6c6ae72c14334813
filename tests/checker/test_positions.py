"""Positions computed per statement agree with libcst's whole-module provider."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from mirrorguard.checker.analysis import analyse
from mirrorguard.checker.core import _positions

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILES = sorted((CORPUS / "buggy").glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_statement_positions_match_the_whole_module_provider(path):
    module = cst.parse_module(path.read_text(encoding="utf-8"))
    analysis = analyse(module)
    items = list(analysis.outside_scope) + list(analysis.unscaled_batches)
    assert items, "a buggy corpus file must have something to place"
    ours = _positions(module, items)
    reference = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    for item in items:
        span = reference[item.node]
        assert ours[id(item.node)] == (span.start.line, span.start.column, span.end.line, span.end.column)
