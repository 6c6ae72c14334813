"""The hand-labelled corpus (tests/corpus): every expected finding, nothing else.

The scripts imitate tensorflow/docs, keras-io, tensorflow/models and Kaggle
styles and were labelled from the rules' contract, independently of the
implementation; see tests/corpus/README.md for the judgement calls.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mirrorguard.checker import check_file

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
sys.path.insert(0, str(CORPUS))
from labels import expected_findings  # noqa: E402

SCRIPTS = sorted((CORPUS / "buggy").glob("*.py")) + sorted((CORPUS / "clean").glob("*.py"))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_corpus_file_gets_exactly_its_labelled_findings(path):
    expected = expected_findings(path)
    found = {(finding.line, finding.code) for finding in check_file(str(path))}
    assert found == expected


def test_corpus_has_both_kinds_of_file():
    buggy = [p for p in SCRIPTS if p.parent.name == "buggy"]
    clean = [p for p in SCRIPTS if p.parent.name == "clean"]
    assert len(buggy) >= 20 and len(clean) >= 20
    assert all(expected_findings(p) for p in buggy)
    assert not any(expected_findings(p) for p in clean)
