"""A rule that raises is a bug of ours, never silence (issue 17 part 4): the
other rules still report, and the run names the rule and the file."""

from __future__ import annotations

import dataclasses
import json
import textwrap

import pytest

from mirrorguard.checker import core
from mirrorguard.checker import rules as registry
from mirrorguard.checker.core import RuleFailed, check_source
from mirrorguard.checker.notebooks import check_notebook_source
from mirrorguard.checker.runner import check_path

SOURCE = textwrap.dedent("""\
    import tensorflow as tf
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    ds = ds.batch(64)
    """)


@pytest.fixture
def broken_mg201(monkeypatch):
    """MG201's check raises ValueError; every other rule is as shipped."""
    def broken(context):
        raise ValueError("simulated bug")
        yield  # pragma: no cover - a generator, as every check is

    rules = tuple(dataclasses.replace(r, check=broken) if r.code == "MG201" else r for r in registry.ALL_RULES)
    monkeypatch.setattr(registry, "ALL_RULES", rules)


def test_the_other_rules_still_report_and_the_failure_names_the_rule(broken_mg201):
    with pytest.raises(RuleFailed) as raised:
        check_source(SOURCE, "train.py")
    assert [(f.line, f.code) for f in raised.value.findings] == [(3, "MG101")]
    assert [failure.code for failure in raised.value.failures] == ["MG201"]
    assert "internal error in rule MG201 (unscaled-global-batch-size): ValueError: simulated bug" in str(raised.value)


def test_a_run_over_files_keeps_the_findings_and_reports_the_error(broken_mg201, tmp_path):
    path = tmp_path / "train.py"
    path.write_text(SOURCE)
    result = check_path(str(path), core.DEFAULT_SETTINGS)
    assert [(f.line, f.code) for f in result.findings] == [(3, "MG101")]
    assert result.error is not None and "MG201" in result.error and "ValueError" in result.error


def test_a_notebook_keeps_the_other_rules_findings_in_their_cells(broken_mg201):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": source}
             for source in ("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()",
                            "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nds = ds.batch(64)")]
    data = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    with pytest.raises(RuleFailed) as raised:
        check_notebook_source(data, "nb.ipynb")
    assert [(f.cell, f.line, f.code) for f in raised.value.findings] == [(2, 1, "MG101")]


def test_a_rule_that_does_not_raise_changes_nothing():
    assert [(f.line, f.code) for f in check_source(SOURCE, "train.py")] == [(3, "MG101"), (4, "MG201")]


def test_check_exits_2_and_names_rule_and_file_on_stderr(tmp_path):
    import os
    import subprocess
    import sys

    # Break MG201 for this run only, through a sitecustomize on the path.
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent("""\
        import dataclasses
        from mirrorguard.checker import rules
        def broken(context):
            raise ValueError("simulated bug")
            yield
        rules.ALL_RULES = tuple(dataclasses.replace(r, check=broken) if r.code == "MG201" else r
                                for r in rules.ALL_RULES)
        """))
    (tmp_path / "train.py").write_text(SOURCE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-m", "mirrorguard", "check", "train.py"],
                            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert result.returncode == 2
    assert "train.py:3:9: MG101" in result.stdout
    assert "train.py: internal error in rule MG201 (unscaled-global-batch-size): ValueError: simulated bug" in (
        result.stderr)


def _main(capsys, monkeypatch, cwd, *args, stdin: bytes | None = None):
    import io
    import sys

    from mirrorguard.cli import main

    monkeypatch.chdir(cwd)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_fix_leaves_a_file_whose_check_failed_as_it_is(broken_mg201, tmp_path, capsys, monkeypatch):
    path = tmp_path / "train.py"
    path.write_text(SOURCE)
    code, out, err = _main(capsys, monkeypatch, tmp_path, "fix", "train.py")
    assert code == 2 and path.read_text() == SOURCE  # MG101 alone would have moved: nothing may
    assert "train.py:3:9: MG101 not fixed: the check of this file failed" in out
    assert "internal error in rule MG201" in err
    code, out, err = _main(capsys, monkeypatch, tmp_path, "check", "--show-fixes", "train.py")
    assert code == 2 and "[*]" not in out and "internal error in rule MG201" in err


def test_fix_of_standard_input_gives_the_input_back_when_a_rule_fails(broken_mg201, tmp_path, capsys, monkeypatch):
    code, out, err = _main(capsys, monkeypatch, tmp_path, "fix", "-", stdin=SOURCE.encode())
    assert code == 2 and out == SOURCE and "internal error in rule MG201" in err
