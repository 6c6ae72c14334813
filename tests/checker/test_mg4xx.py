"""The multi-worker rules (MG4xx) where the shared runners do not reach: the
opinionated MG405 (off unless selected, so the corpus run never sees it), notebooks
in cell order, and program order through helpers."""

from __future__ import annotations

import json
import textwrap

import pytest

from mirrorguard.checker import check_source
from mirrorguard.checker.core import Settings
from mirrorguard.checker.notebooks import check_notebook
from mirrorguard.cli import main

# tensorflow/docs multi_worker_with_keras's mnist_setup.py and main.py, as one file: an
# in-memory dataset reaches the strategy through a helper, unsharded.
TUTORIAL = textwrap.dedent("""\
    import json
    import os

    import numpy as np
    import tensorflow as tf

    def mnist_dataset(batch_size):
        (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
        x_train = x_train / np.float32(255)
        y_train = y_train.astype(np.int64)
        return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000).repeat().batch(batch_size)

    tf_config = json.loads(os.environ["TF_CONFIG"])
    num_workers = len(tf_config["cluster"]["worker"])
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    multi_worker_dataset = mnist_dataset(64 * num_workers)
    with strategy.scope():
        multi_worker_model = build_and_compile_cnn_model()
    multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=70)
    """)


def _codes(findings, prefix="MG4"):
    return [(f.line, f.code) for f in findings if f.code.startswith(prefix)]


def test_mg405_is_off_by_default_and_on_when_selected(tmp_path):
    assert ("MG405" not in {f.code for f in check_source(TUTORIAL, "main.py")})
    assert _codes(check_source(TUTORIAL, "main.py", Settings(select=("MG405",)))) == [(19, "MG405")]
    # The command line leaves it off too, and extend-select turns it on.
    script = tmp_path / "main.py"
    script.write_text(TUTORIAL, encoding="utf-8")
    assert main(["check", "--select", "MG404", str(script)]) == 1  # the fit itself, on Keras 3
    assert main(["check", "--select", "MG405", str(script)]) == 1
    (tmp_path / "pyproject.toml").write_text('[tool.mirrorguard]\nignore = ["MG404"]\n', encoding="utf-8")
    assert main(["check", str(script)]) == 0


def test_mg405_sharded_or_with_options_is_quiet():
    sharded = TUTORIAL.replace(".shuffle(60000)", ".shard(2, 0).shuffle(60000)")
    assert _codes(check_source(sharded, "main.py", Settings(select=("MG405",)))) == []
    with_options = TUTORIAL.replace(
        "multi_worker_model.fit(multi_worker_dataset,",
        "options = tf.data.Options()\n"
        "options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA\n"
        "multi_worker_model.fit(multi_worker_dataset.with_options(options),")
    assert _codes(check_source(with_options, "main.py", Settings(select=("MG405",)))) == []


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


@pytest.mark.parametrize("source, expected", [
    # The op runs in a helper called before the strategy: reported at the strategy.
    ("""
     import tensorflow as tf
     def load():
         return tf.data.Dataset.range(10)
     ds = load()
     strategy = tf.distribute.MultiWorkerMirroredStrategy()
     """, [(5, "MG403")]),
    # Listing devices the old way starts no runtime (measured); listing logical devices does.
    ("""
     import tensorflow as tf
     from tensorflow.python.client import device_lib
     print(device_lib.list_local_devices())
     strategy = tf.distribute.MultiWorkerMirroredStrategy()
     """, []),
    # The helper is defined first but called after the strategy: nothing ran before it.
    ("""
     import tensorflow as tf
     def load():
         return tf.data.Dataset.range(10)
     strategy = tf.distribute.MultiWorkerMirroredStrategy()
     ds = load()
     """, []),
    # A save helper called only on the chief: reported at the call.
    ("""
     import os
     os.environ["TF_USE_LEGACY_KERAS"] = "1"
     import tensorflow as tf
     strategy = tf.distribute.MultiWorkerMirroredStrategy()
     with strategy.scope():
         model = build_and_compile()
     def export(m):
         m.save("/shared/model")
     if strategy.cluster_resolver.task_id == 0:
         export(model)
     """, [(10, "MG402")]),
    # `if not chief: return` before the save: only the chief reaches it.
    ("""
     import os
     os.environ["TF_USE_LEGACY_KERAS"] = "1"
     import tensorflow as tf
     strategy = tf.distribute.MultiWorkerMirroredStrategy()
     def finish(model):
         if strategy.extended.should_checkpoint is False:
             return
         model.save_weights("/shared/weights.h5")
     with strategy.scope():
         net = build_and_compile()
     finish(net)
     """, [(8, "MG402")]),
    # A callback's own path, given where the callback is made: every worker saves it.
    ("""
     import os
     os.environ["TF_USE_LEGACY_KERAS"] = "1"
     import tensorflow as tf
     class SaveEveryEpoch(tf.keras.callbacks.Callback):
         def __init__(self, path):
             super().__init__()
             self.path = path
         def on_epoch_end(self, epoch, logs=None):
             self.model.save_weights(self.path)
     strategy = tf.distribute.MultiWorkerMirroredStrategy()
     with strategy.scope():
         model = build_and_compile()
     model.fit(dataset, epochs=3, callbacks=[SaveEveryEpoch("/shared/weights.h5")])
     """, [(9, "MG402")]),
])
def test_program_order_and_helpers(source, expected):
    assert _codes(check_source(textwrap.dedent(source).lstrip("\n"), "case.py")) == expected
