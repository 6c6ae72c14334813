"""``mirrorguard fix`` sees what ``check`` sees; ``check --fix``/``--diff``/``--add-noqa``; I/O errors."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mirrorguard.cli import main

MIRRORGUARD = [sys.executable, "-m", "mirrorguard.cli"]
HIDDEN = """\
import tensorflow as tf
from cluster import connect

dist = connect()
model = tf.keras.Sequential()
with dist.scope():
    pass
"""
HIDDEN_FIXED = """\
import tensorflow as tf
from cluster import connect

dist = connect()
with dist.scope():
    model = tf.keras.Sequential()
    pass
"""
BAD = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
"""
FIXED = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def run(capsys, monkeypatch, cwd: Path, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def located(lines: str) -> set[tuple[str, str]]:
    """{("train.py:5:9", "MG101")} from check's or fix's lines."""
    found = set()
    for line in lines.splitlines():
        if ": MG" in line:
            where, rest = line.split(": ", 1)
            found.add((where, rest.split()[0]))
    return found


# -- fix sees what check sees -------------------------------------------------------

def test_fix_reads_the_configuration_that_check_reads(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"pyproject.toml": '[tool.mirrorguard]\nstrategy-names = ["dist"]\n', "train.py": HIDDEN})
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", "train.py")
    assert code == 1 and located(out) == {("train.py:5:9", "MG101")}
    code, out, _ = run(capsys, monkeypatch, tmp_path, "fix", "train.py")
    assert code == 0
    assert out.splitlines() == ["train.py:5:9: MG101 fixed", "Fixed 1 finding in 1 file (1 file checked); 0 left."]
    assert (tmp_path / "train.py").read_text() == HIDDEN_FIXED


@pytest.mark.parametrize("args", [
    ["--strategy-names", "dist"],
    ["--config", "other.toml"],
])
def test_fix_takes_checks_analysis_and_configuration_flags(tmp_path, capsys, monkeypatch, args):
    write(tmp_path, {"other.toml": 'strategy-names = ["dist"]\n', "train.py": HIDDEN})
    assert run(capsys, monkeypatch, tmp_path, "fix", *args, "train.py")[0] == 0
    assert (tmp_path / "train.py").read_text() == HIDDEN_FIXED


def test_fix_isolated_and_selection_flags(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"pyproject.toml": '[tool.mirrorguard]\nstrategy-names = ["dist"]\n', "train.py": HIDDEN,
                     "b.py": BAD})
    code, out, _ = run(capsys, monkeypatch, tmp_path, "fix", "--isolated", "--ignore", "MG1", "--extend-select",
                       "MG101", ".")
    # --isolated: `dist` is unknown. MG101 (extend-select) is more specific than the ignored MG1, so
    # it is reported and fixed in b.py; MG102 stays ignored.
    assert located(out) == {("b.py:4:9", "MG101")}
    assert (tmp_path / "train.py").read_text() == HIDDEN
    assert code == 0


def test_fix_reports_exactly_what_check_reports_cross_file_included(tmp_path, capsys, monkeypatch):
    write(tmp_path, {
        "models.py": """\
            import tensorflow as tf

            def build_model():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer="adam", loss="mse")
                return model
            """,
        "train.py": """\
            import tensorflow as tf
            from models import build_model

            strategy = tf.distribute.MirroredStrategy()
            model = build_model()
            other = tf.keras.Sequential()
            """,
    })
    _, checked, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", ".")
    code, _, fixed = run(capsys, monkeypatch, tmp_path, "fix", "--diff", ".")  # --diff: the report on stderr
    assert located(checked) == located(fixed) == {
        ("train.py:5:9", "MG101"), ("train.py:5:9", "MG102"), ("train.py:6:9", "MG101")}
    # The fixer sees the imported helper's summary as check did, so the call moves into the scope too.
    assert code == 1
    assert "train.py:5:9: MG101 fixable" in fixed and "train.py:5:9: MG102 fixable" in fixed
    assert "train.py:6:9: MG101 fixable" in fixed
    code, _, _ = run(capsys, monkeypatch, tmp_path, "fix", ".")
    assert code == 0
    assert "with strategy.scope():\n    model = build_model()\n    other = tf.keras.Sequential()" in (
        tmp_path / "train.py").read_text()


def test_check_fix_and_check_diff_are_fix(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"a.py": BAD})
    code, out, err = run(capsys, monkeypatch, tmp_path, "check", "--diff", "a.py")
    assert code == 1 and "+with strategy.scope():" in out and "a.py:4:9: MG101 fixable" in err
    assert (tmp_path / "a.py").read_text() == BAD
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--fix", "a.py")
    assert code == 0 and "Fixed 2 findings in 1 file (1 file checked); 0 left." in out
    assert (tmp_path / "a.py").read_text() == FIXED


def test_fix_stdin_writes_the_fixed_source_to_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
    code, out, err = run(capsys, monkeypatch, tmp_path, "fix", "-", "--stdin-filename", "train.py")
    assert code == 0 and out == FIXED and "train.py:4:9: MG101 fixed" in err


# -- I/O errors -----------------------------------------------------------------

def _without_root_override():
    """For the child: root writes anywhere; without CAP_DAC_OVERRIDE it obeys permission bits."""
    if os.geteuid() == 0:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
            assert libc.prctl(24, capability, 0, 0, 0) == 0  # PR_CAPBSET_DROP: gone after exec


def test_fix_in_a_folder_it_cannot_write_is_exit_2_with_one_line(tmp_path):
    locked, free = tmp_path / "locked", tmp_path / "free"
    for folder in (locked, free):
        folder.mkdir()
        (folder / "train.py").write_text(BAD)
    locked.chmod(0o555)
    try:
        result = subprocess.run([*MIRRORGUARD, "fix", "locked", "free"], cwd=tmp_path, capture_output=True,
                                text=True, preexec_fn=_without_root_override)
    finally:
        locked.chmod(0o755)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr == "mirrorguard: error: locked/train.py: cannot write: Permission denied\n"
    assert (locked / "train.py").read_text() == BAD  # untouched
    assert (free / "train.py").read_text() == FIXED  # the run went on
    assert "locked/train.py:4:9: MG101 not fixed: cannot write: Permission denied" in result.stdout
    assert [p.name for p in locked.iterdir()] == ["train.py"]


# -- --add-noqa -----------------------------------------------------------------

def test_add_noqa_marks_each_line_once_and_keeps_encoding_and_line_breaks(tmp_path, capsys, monkeypatch):
    source = ("# -*- coding: latin-1 -*-\n# caf\u00e9\n" + BAD.replace(
        "Dense(1)])", "Dense(1)])  # noqa: E501") + "ds = ds.batch(64)\n").replace("\n", "\r\n")
    target = tmp_path / "train.py"
    target.write_bytes(source.encode("latin-1"))
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--add-noqa", "train.py")
    assert code == 0 and out == "Added 3 noqa comments to 1 file.\n"
    expected = ("# -*- coding: latin-1 -*-\n# caf\u00e9\n" + BAD.replace(
        "Dense(1)])", "Dense(1)])  # noqa: E501, MG101").replace(
        '"mse")', '"mse")  # noqa: MG102') + "ds = ds.batch(64)  # noqa: MG201\n").replace("\n", "\r\n")
    assert target.read_bytes() == expected.encode("latin-1")
    assert run(capsys, monkeypatch, tmp_path, "check", "train.py")[:2] == (0, "All checks passed (1 file checked).\n")
    # Again: nothing left to mark, nothing written.
    before = target.stat().st_mtime_ns
    again = run(capsys, monkeypatch, tmp_path, "check", "--add-noqa", "train.py")
    assert again[1] == "Added 0 noqa comments to 0 files.\n"
    assert target.stat().st_mtime_ns == before and target.read_bytes() == expected.encode("latin-1")


def test_add_noqa_never_writes_inside_a_string_or_after_a_backslash(tmp_path, capsys, monkeypatch):
    source = textwrap.dedent('''\
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential(name="""a
        b""")
        ds = ds.batch(64) \\
            .prefetch(1)
        ''')
    (tmp_path / "t.py").write_text(source)
    code, out, err = run(capsys, monkeypatch, tmp_path, "check", "--add-noqa", "t.py")
    assert (tmp_path / "t.py").read_text() == source
    assert "t.py:3: cannot add `# noqa` here" in err and "t.py:5: cannot add `# noqa` here" in err
    assert code == 2 and out == "Added 0 noqa comments to 0 files.\n"
