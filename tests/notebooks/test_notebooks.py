"""Notebooks: code cells as one program, magics skipped in place, findings per cell. (The corpus's
notebooks are checked against their labels with every rule's cases, tests/checker/test_rule_cases.py.)"""

from __future__ import annotations

import json

import pytest

from mirrorguard.checker.notebooks import check_notebook_source, python_lines


def notebook(*cells, language="python", markdown_first=True) -> bytes:
    """An nbformat 4 notebook: strings are code cells, ("md", text) markdown."""
    entries = [{"cell_type": "markdown", "metadata": {}, "source": ["# Title"]}] if markdown_first else []
    for cell in cells:
        if isinstance(cell, tuple):
            entries.append({"cell_type": "markdown", "metadata": {}, "source": cell[1]})
        else:
            # Jupyter stores sources as lists of lines, each with its newline.
            entries.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                            "source": cell.splitlines(keepends=True)})
    return json.dumps({"cells": entries, "nbformat": 4, "nbformat_minor": 5,
                       "metadata": {"kernelspec": {"name": "python3", "language": language,
                                                   "display_name": "Python 3"}}}).encode()


def found(data: bytes, **kwargs) -> set[tuple[int | None, int, int, str]]:
    return {(f.cell, f.line, f.column, f.code) for f in check_notebook_source(data, "nb.ipynb", **kwargs)}


STRATEGY = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"


def test_strategy_in_one_cell_and_model_in_a_later_one_is_one_program():
    data = notebook(STRATEGY, ("md", "Build the model"), "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])")
    assert found(data) == {(2, 1, 9, "MG101")}


def test_model_inside_scope_in_a_later_cell_is_fine():
    data = notebook(STRATEGY, "with strategy.scope():\n    model = tf.keras.Sequential()\n    model.compile('adam', 'mse')")
    assert found(data) == set()


def test_magics_and_shell_escapes_keep_every_other_position():
    cell = (
        "%pip install -q tensorflow\n"
        "!nvidia-smi -L\n"
        "files = !ls /data\n"
        "tf?\n"
        "%env TF_CPP_MIN_LOG_LEVEL=2\n"
        "model = tf.keras.Sequential()\n"
    )
    assert found(notebook(STRATEGY, cell)) == {(2, 6, 9, "MG101")}


def test_magic_in_an_indented_block_leaves_valid_python():
    cell = "if True:\n    !echo building\n    model = tf.keras.Sequential()\n"
    assert found(notebook(STRATEGY, cell)) == {(2, 3, 13, "MG101")}


def test_percent_continuing_an_expression_is_python_not_a_magic():
    lines = ["x = (10", "     % 3)", "s = '''", "!not a shell escape inside a string", "'''"]
    assert python_lines("\n".join(lines)) == lines


def test_shell_cell_magic_body_is_skipped_python_cell_magic_body_is_checked():
    shell = "%%bash\nmodel = tf.keras.Sequential()  # bash would choke on this anyway\n"
    timed = "%%time\nmodel = tf.keras.Sequential()\n"
    assert found(notebook(STRATEGY, shell)) == set()
    assert found(notebook(STRATEGY, timed)) == {(2, 2, 9, "MG101")}


def test_time_line_magic_runs_python_and_keeps_its_column():
    assert found(notebook(STRATEGY, "%time model = tf.keras.Sequential()\n")) == {(2, 1, 15, "MG101")}


def test_top_level_await_is_legal_in_a_notebook():
    cell = "data = await load_async()\nmodel = tf.keras.Sequential()\n"
    assert found(notebook(STRATEGY, cell)) == {(2, 2, 9, "MG101")}


def test_a_cell_with_a_syntax_error_is_mg000_and_the_others_are_still_checked():
    data = notebook(STRATEGY, "def broken(:\n    pass\n", "model = tf.keras.Sequential()\n")
    assert found(data) == {(2, 1, 12, "MG000"), (3, 1, 9, "MG101")}


def test_noqa_works_inside_a_cell():
    assert found(notebook(STRATEGY, "model = tf.keras.Sequential()  # noqa: MG101\n")) == set()


def test_unused_noqa_in_a_cell_is_mg001_in_that_cell():
    data = notebook(STRATEGY, "with strategy.scope():\n    model = tf.keras.Sequential()  # noqa: MG101\n",
                    "model2 = tf.keras.Sequential()  # noqa: MG101\nmodel2.fit(x)\n")
    # The first comment silences nothing (the model is made in the scope); the second silences MG101
    # (model2 is trained: a copy never used would be no finding, issue 17).
    assert found(data) == {(2, 2, 36, "MG001")}


def test_notebook_in_another_language_is_not_checked():
    assert found(notebook("model <- keras_model_sequential()", language="R")) == set()


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"{not json", "not a notebook: invalid JSON at line 1 column 2"),
        (b"[1, 2]", "not a notebook: the top level is not a JSON object"),
        (b'{"nbformat": 4}', "not a notebook: no `cells` list"),
        (b'{"cells": {"a": 1}}', "not a notebook: `cells` is not a list"),
        (b'{"cells": [{"source": "x"}]}', "not a notebook: cell 1 has no `cell_type`"),
        (b'{"cells": [{"cell_type": "code", "source": 3}]}', "neither a string nor a list of strings"),
        (b"\xff\xfe\x00junk", "not a notebook: cannot decode as UTF-8"),
        (b"", "not a notebook: invalid JSON"),
    ],
    ids=["bad-json", "array", "no-cells", "cells-not-list", "no-cell-type", "bad-source", "binary", "empty"],
)
def test_broken_notebook_is_mg000_with_a_clear_message(data, reason):
    [finding] = check_notebook_source(data, "broken.ipynb")
    assert (finding.code, finding.line, finding.cell) == ("MG000", 1, None)
    assert reason in finding.message


def test_nbformat_3_worksheets_are_read():
    data = json.dumps({"nbformat": 3, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "code", "input": STRATEGY, "outputs": []},
        {"cell_type": "code", "input": ["model = tf.keras.Sequential()\n"], "outputs": []},
    ]}]}).encode()
    assert found(data) == {(2, 1, 9, "MG101")}
