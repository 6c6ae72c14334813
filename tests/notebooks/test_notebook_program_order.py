"""A notebook's code cells are one program in cell order: the multi-worker rules that are about
program order (MG401: TF_CONFIG set after the strategy) follow the cells."""

from __future__ import annotations

import json
import textwrap

from mirrorguard.checker.notebooks import check_notebook


def _notebook(tmp_path, cells):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
        "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                   "source": textwrap.dedent(cell)} for cell in cells],
    }), encoding="utf-8")
    return path


def test_mg401_in_a_notebook_follows_cell_order(tmp_path):
    cells = [
        "import json, os\nimport tensorflow as tf\n",
        "strategy = tf.distribute.MultiWorkerMirroredStrategy()\n",
        "os.environ['TF_CONFIG'] = json.dumps(tf_config)\n",
    ]
    found = [(f.cell, f.line, f.code) for f in check_notebook(str(_notebook(tmp_path, cells)))
             if f.code == "MG401"]
    assert found == [(3, 1, "MG401")]
    swapped = [cells[0], cells[2], cells[1]]
    assert [f for f in check_notebook(str(_notebook(tmp_path, swapped))) if f.code == "MG401"] == []


def test_mg401_tutorial_notebook_that_sets_tf_config_for_each_worker_it_starts_is_quiet(tmp_path):
    # tensorflow/docs' notebook: an in-process single-worker strategy, then TF_CONFIG for
    # each worker it starts with %%bash (the shell cells are not Python).
    cells = [
        "import json, os\nos.environ.pop('TF_CONFIG', None)\nimport tensorflow as tf\n",
        "strategy = tf.distribute.MultiWorkerMirroredStrategy()\n",
        "tf_config = {'cluster': {'worker': ['localhost:12345', 'localhost:23456']},\n"
        "             'task': {'type': 'worker', 'index': 0}}\nos.environ['TF_CONFIG'] = json.dumps(tf_config)\n",
        "%%bash --bg\npython main.py &> job_0.log\n",
        "tf_config['task']['index'] = 1\nos.environ['TF_CONFIG'] = json.dumps(tf_config)\n",
        "%%bash\npython main.py\n",
    ]
    assert [f for f in check_notebook(str(_notebook(tmp_path, cells))) if f.code.startswith("MG4")] == []
