"""Where settings come from: each file's nearest configuration, flags over it, and what is refused.

``mirrorguard check`` run in-process (``main``) on small trees; the exit codes
and messages are the ones users see.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mirrorguard.cli import main

BAD = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
ds = ds.batch(64)
"""
HIDDEN = """\
import tensorflow as tf
from cluster import connect

dist = connect()
model = tf.keras.Sequential()
with dist.scope():
    pass
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def run(capsys, monkeypatch, cwd: Path, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def codes(out: str) -> list[tuple[str, str]]:
    return [(line.split(":")[0], line.split(": ")[1].split()[0]) for line in out.splitlines()]


# -- hierarchical discovery -------------------------------------------------------

def test_each_file_takes_its_nearest_configuration(tmp_path, capsys, monkeypatch):
    write(tmp_path, {
        "A/pyproject.toml": '[tool.mirrorguard]\nstrategy-names = ["dist"]\n',
        "A/x.py": HIDDEN,
        "B/mirrorguard.toml": 'ignore = ["MG201"]\n',
        "B/y.py": BAD,
        "C/z.py": BAD,
    })
    code, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "A/x.py", "B/y.py", "C/z.py")
    assert code == 1
    # A's strategy-names applies to A only, B's ignore to B only, C has the defaults.
    assert codes(out) == [("A/x.py", "MG101"), ("B/y.py", "MG101"), ("C/z.py", "MG101"), ("C/z.py", "MG201")]


def test_mirrorguard_toml_wins_over_pyproject_in_its_folder_and_nested_ones_win(tmp_path, capsys, monkeypatch):
    write(tmp_path, {
        "pyproject.toml": '[tool.mirrorguard]\nselect = ["MG2"]\n',
        "mirrorguard.toml": 'select = ["MG1"]\n',
        "top.py": BAD,
        "sub/pyproject.toml": '[project]\nname = "x"\n',  # nothing for mirrorguard: not a configuration
        "sub/mid.py": BAD,
        "sub/deep/pyproject.toml": '[tool.mirrorguard]\nselect = ["MG201"]\n',
        "sub/deep/low.py": BAD,
    })
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", ".")
    assert codes(out) == [("top.py", "MG101"), ("sub/mid.py", "MG101"), ("sub/deep/low.py", "MG201")]


def test_config_flag_applies_one_file_everywhere_and_reads_top_level_keys(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"mg.toml": 'select = ["MG201"]\n', "A/pyproject.toml": '[tool.mirrorguard]\nselect = ["MG1"]\n',
                     "A/x.py": BAD})
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--config", "mg.toml", "A")
    assert codes(out) == [("A/x.py", "MG201")]
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--isolated", "A")
    assert codes(out) == [("A/x.py", "MG101"), ("A/x.py", "MG201")]


@pytest.mark.parametrize("name, text, message", [
    ("mg.toml", "", "mg.toml: nothing in this file configures mirrorguard"),
    ("pyproject.toml", '[project]\nname = "x"\n', "pyproject.toml: no [tool.mirrorguard] table"),
    ("mg.toml", 'selct = ["MG1"]\n', "unknown key 'selct' in the top level (did you mean select?)"),
])
def test_config_file_with_nothing_for_mirrorguard_is_an_error(tmp_path, capsys, monkeypatch, name, text, message):
    write(tmp_path, {name: text, "x.py": BAD})
    code, out, err = run(capsys, monkeypatch, tmp_path, "--config", name, "x.py")
    assert code == 2 and out == "" and message in err


# -- unknown codes ----------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--select", "MG999"], "unknown code 'MG999' in --select: no rule has this code or prefix"),
    (["--select", "MG9"], "unknown code 'MG9' in --select"),
    (["--ignore", "MG11"], "unknown code 'MG11' in --ignore: no rule has this code or prefix; did you mean MG101?"),
    (["--extend-select", "MG8"], "unknown code 'MG8' in --extend-select"),
    (["--per-file-ignores", "tests/*:MG7"], "unknown code 'MG7' in 'tests/*' of --per-file-ignores"),
])
def test_unknown_codes_on_the_command_line_are_usage_errors(tmp_path, capsys, monkeypatch, args, message):
    write(tmp_path, {"x.py": BAD})
    code, out, err = run(capsys, monkeypatch, tmp_path, *args, "x.py")
    assert code == 2 and out == ""
    assert message in err and err.rstrip().endswith("`mirrorguard rules` lists them")


def test_unknown_code_in_configuration_is_a_usage_error(tmp_path):
    write(tmp_path, {"pyproject.toml": '[tool.mirrorguard]\nselect = ["MG1", "MG999"]\n', "x.py": BAD})
    result = subprocess.run([sys.executable, "-m", "mirrorguard.cli", "check", "x.py"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert "unknown code 'MG999' in `select` in [tool.mirrorguard] of" in result.stderr


def test_unknown_code_in_noqa_is_a_usage_error_and_the_run_goes_on(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"x.py": BAD.replace("Dense(1)])", "Dense(1)])  # noqa: MG9x"),
                     "ok.py": '"""Quoted, not a comment: # noqa: MG9"""\n'
                              + BAD.replace("Dense(1)])", "Dense(1)])  # noqa: E501, MG101")})
    code, out, err = run(capsys, monkeypatch, tmp_path, "-q", ".")
    assert code == 2
    assert "mirrorguard: error: x.py:4: unknown code 'MG9' in `# noqa`" in err
    assert "ok.py" not in err  # other tools' codes, real ones and a docstring are fine
    assert ("x.py", "MG101") in codes(out)  # the findings are still reported


def test_per_file_ignores_on_the_command_line_replace_the_files(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"pyproject.toml": '[tool.mirrorguard]\nper-file-ignores = {"tests/*" = ["MG1"]}\n',
                     "tests/t.py": BAD, "src/s.py": BAD})
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", ".")
    assert codes(out) == [("src/s.py", "MG101"), ("src/s.py", "MG201"), ("tests/t.py", "MG201")]
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--per-file-ignores", "src/*:MG2 tests/*:MG101,MG201", ".")
    assert codes(out) == [("src/s.py", "MG101")]


# -- files ------------------------------------------------------------------------

def test_gitignore_is_respected_in_a_repository_unless_told(tmp_path, capsys, monkeypatch):
    write(tmp_path, {
        ".gitignore": "generated/\n*_tmp.py\n",
        "generated/g.py": BAD,
        "scratch_tmp.py": BAD,
        "pkg/.gitignore": "local.py\n!keep_tmp.py\n",
        "pkg/local.py": BAD,
        "pkg/keep_tmp.py": BAD,
        "pkg/main.py": BAD,
    })
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--select", "MG201", ".")
    assert [path for path, _ in codes(out)] == ["pkg/keep_tmp.py", "pkg/main.py"]
    # A file named on the command line is checked even if git ignores it.
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--select", "MG201", "scratch_tmp.py")
    assert [path for path, _ in codes(out)] == ["scratch_tmp.py"]
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--select", "MG201", "--no-respect-gitignore", ".")
    assert len(codes(out)) == 5


def test_stdin_with_a_filename_takes_that_files_settings(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"sub/pyproject.toml": '[tool.mirrorguard]\nstrategy-names = ["dist"]\n'})
    code, out, _ = run(capsys, monkeypatch, tmp_path, "-", "--stdin-filename", "sub/train.py",
                       stdin=HIDDEN.encode())
    assert code == 1
    assert out.splitlines() == [
        "sub/train.py:5:9: MG101 `tf.keras.Sequential()` builds a Keras model outside `dist.scope()`; "
        "build it inside `with dist.scope():`",
        "Found 1 finding in 1 file (1 file checked); `--show-fixes` counts those `mirrorguard fix` fixes.",
    ]
    code, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "-", stdin=HIDDEN.encode())
    assert (code, out) == (0, "")  # no name: no configuration, `dist` unknown


def test_stdin_notebook_by_its_name(tmp_path, capsys, monkeypatch):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": BAD}]
    data = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "-", "--stdin-filename", "nb.ipynb", stdin=data)
    assert out.startswith("nb.ipynb:cell 1:4:9: MG101 ")


def test_stdin_filename_without_dash_is_a_usage_error(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"x.py": BAD})
    code, _, err = run(capsys, monkeypatch, tmp_path, "--stdin-filename", "x.py", "x.py")
    assert code == 2 and "give `-` as the path" in err


def test_abbreviated_options_are_refused(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"x.py": BAD})
    code, _, err = run(capsys, monkeypatch, tmp_path, "--selec", "MG1", "x.py")
    assert code == 2 and "unrecognized arguments: --selec" in err


def test_help_says_strategy_names_take_variables_too(capsys):
    assert main(["check", "--help"]) == 0
    assert "variables holding your tf.distribute strategy" in " ".join(capsys.readouterr().out.split())


def test_add_noqa_refuses_standard_input(tmp_path, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, tmp_path, "--add-noqa", "-", stdin=HIDDEN.encode())
    assert code == 2 and out == "" and "--add-noqa edits files in place; it cannot edit standard input" in err
