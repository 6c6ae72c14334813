"""The static side installs and runs in a bare pre-commit environment.

Importing the checker, the fixer and the flake8 plugin, and running
``mirrorguard check`` and ``mirrorguard fix`` on a file with a strategy in play,
must load no TensorFlow or Keras; ``check`` must not load libcst either (the
analysis runs on ``ast``; libcst is the fixer's tree). Each run is a fresh
interpreter, so nothing another test imported can hide an import.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

TRAINING_SCRIPT = textwrap.dedent("""\
    import tensorflow as tf
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, batch_size=64)
    """)

HEAVY = ("tensorflow", "keras", "tf_keras")

PROBE = textwrap.dedent("""\
    import json, sys
    {action}
    print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r} + ("libcst",))))
    """)


def loaded_after(action: str, cwd) -> set[str]:
    code = PROBE.format(action=action, heavy=HEAVY)
    result = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return {name.split(".")[0] for name in json.loads(result.stdout.strip().splitlines()[-1])}


@pytest.mark.parametrize("action", [
    "import mirrorguard, mirrorguard.checker, mirrorguard.checker.rules, mirrorguard.cli",
    "import flake8_mirrorguard",
    "import mirrorguard.fixer.fix",
])
def test_importing_the_static_side_loads_no_tensorflow(action, tmp_path):
    assert not loaded_after(action, tmp_path) & set(HEAVY)


def test_check_analyses_on_ast_without_tensorflow_or_libcst(tmp_path):
    (tmp_path / "train.py").write_text(TRAINING_SCRIPT)
    action = textwrap.dedent("""\
        from mirrorguard.cli import main
        try:
            main(["check", "-q", "train.py"])
        except SystemExit as exit:
            assert exit.code == 1, exit.code
        """)
    assert loaded_after(action, tmp_path) == set()


def test_flake8_plugin_run_loads_no_tensorflow_or_libcst(tmp_path):
    (tmp_path / "train.py").write_text(TRAINING_SCRIPT)
    action = textwrap.dedent("""\
        import ast
        from flake8_mirrorguard import Plugin
        text = open("train.py").read()
        found = list(Plugin(ast.parse(text), text.splitlines(True), "train.py").run())
        assert any(f[2].startswith("MG101 ") for f in found), found
        """)
    assert loaded_after(action, tmp_path) == set()


def test_fix_loads_no_tensorflow(tmp_path):
    (tmp_path / "train.py").write_text(TRAINING_SCRIPT)
    action = textwrap.dedent("""\
        from mirrorguard.cli import main
        try:
            main(["fix", "train.py"])
        except SystemExit:
            pass
        assert "with strategy.scope():\\n    model = " in open("train.py").read()
        """)
    assert not loaded_after(action, tmp_path) & set(HEAVY)
