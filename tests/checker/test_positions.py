"""Finding positions are character positions, as libcst (the fixer's tree) and editors count them.

The analysis runs on ``ast``, whose columns count UTF-8 bytes; every finding's
start and end must still be the start and end of a node libcst sees, so the
fixer can find what to move, and flake8 and ``mirrorguard check`` agree on
lines with non-ASCII text before the finding.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from mirrorguard.checker import check_source

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
FILES = sorted((CORPUS / "buggy").glob("*.py"))


def libcst_spans(text: str) -> set[tuple[int, int, int, int]]:
    positions = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True).resolve(PositionProvider)
    return {(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1) for r in positions.values()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_finding_spans_a_node_libcst_sees(path):
    text = path.read_text(encoding="utf-8")
    findings = check_source(text, str(path))
    assert findings, "a buggy corpus file must have something to place"
    spans = libcst_spans(text)
    for finding in findings:
        assert (finding.line, finding.column, finding.end_line, finding.end_column) in spans, finding


def test_columns_count_characters_after_non_ascii_text():
    text = textwrap.dedent("""\
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        modèle = "réseau"; model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # 模型
        données = données.batch(64)
        model.fit(données)
        """)
    found = {(f.code, f.line, f.column, f.end_column) for f in check_source(text)}
    line3 = text.splitlines()[2]
    line4 = text.splitlines()[3]
    start = line3.index("tf.keras.Sequential") + 1
    assert ("MG101", 3, start, line3.index("  #") + 1) in found
    assert ("MG201", 4, line4.index("64") + 1, line4.index("64") + 3) in found
    spans = libcst_spans(text)
    assert all((f.line, f.column, f.end_line, f.end_column) in spans for f in check_source(text))
