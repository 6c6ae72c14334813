"""`mirrorguard fix` on real files: what is written, how, and what never is."""

from __future__ import annotations

import os
import stat

import pytest

from mirrorguard.cli import main
from mirrorguard.fixer import files as fixer_files
from tests.fixer.helpers import dedent

BUGGY = dedent("""
    import tensorflow as tf
    # coding note: caf\u00e9
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
""")
FIXED = dedent("""
    import tensorflow as tf
    # coding note: caf\u00e9
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
""")


def write(path, data: bytes, mode=0o640):
    path.write_bytes(data)
    os.chmod(path, mode)
    return path


def leftovers(folder):
    return [p.name for p in folder.iterdir() if "mirrorguard-fix" in p.name]


def test_fix_writes_and_reports(tmp_path, capsys):
    target = write(tmp_path / "train.py", BUGGY.encode())
    assert main(["fix", str(tmp_path)]) == 0
    assert target.read_bytes() == FIXED.encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    out = capsys.readouterr().out
    assert f"{target}:4:9: MG101 fixed" in out and "MG102 fixed" in out
    assert "Fixed 2 findings in 1 file (1 file checked); 0 left." in out
    assert leftovers(tmp_path) == []


def test_latin1_cookie_bom_and_crlf_round_trip(tmp_path):
    latin = write(tmp_path / "latin.py", ("# -*- coding: latin-1 -*-\n" + BUGGY).encode("latin-1"))
    bom = write(tmp_path / "bom.py", b"\xef\xbb\xbf" + BUGGY.encode())
    crlf = write(tmp_path / "crlf.py", BUGGY.replace("\n", "\r\n").encode())
    assert main(["fix", str(tmp_path)]) == 0
    assert latin.read_bytes() == ("# -*- coding: latin-1 -*-\n" + FIXED).encode("latin-1")
    assert bom.read_bytes() == b"\xef\xbb\xbf" + FIXED.encode()
    assert crlf.read_bytes() == FIXED.replace("\n", "\r\n").encode()


def test_unchanged_file_is_not_rewritten(tmp_path):
    clean = write(tmp_path / "clean.py", FIXED.encode())
    before = clean.stat()
    os.utime(clean, ns=(before.st_atime_ns, 1_000_000_000))
    assert main(["fix", str(clean)]) == 0
    after = clean.stat()
    assert after.st_mtime_ns == 1_000_000_000 and after.st_ino == before.st_ino


def test_unreadable_files_are_never_written(tmp_path, capsys):
    broken = write(tmp_path / "broken.py", (BUGGY + "model = (\n").encode())
    undecodable = write(tmp_path / "bytes.py", BUGGY.encode() + b"\xff\xfe\n")
    snapshots = {p: p.read_bytes() for p in (broken, undecodable)}
    assert main(["fix", str(tmp_path)]) == 1
    for path, data in snapshots.items():
        assert path.read_bytes() == data
    out = capsys.readouterr().out
    assert "MG000 not fixed" in out


def test_diff_changes_nothing(tmp_path, capsys):
    target = write(tmp_path / "train.py", BUGGY.encode())
    assert main(["fix", "--diff", str(target)]) == 1
    assert target.read_bytes() == BUGGY.encode()
    captured = capsys.readouterr()
    assert "+with strategy.scope():" in captured.out and f"--- a/{target}" in captured.out
    assert "MG101 fixable" in captured.err


def test_exit_one_when_findings_remain_and_unsafe_fixes(tmp_path, capsys):
    source = BUGGY + "ds = ds.batch(64)\n"
    target = write(tmp_path / "train.py", source.encode())
    assert main(["fix", str(target)]) == 1
    assert "MG201 not fixed: the fix changes the global batch size" in capsys.readouterr().out
    assert main(["fix", "--unsafe-fixes", str(target)]) == 0
    assert target.read_text().endswith("ds = ds.batch(64 * strategy.num_replicas_in_sync)\n")


def test_usage_error_for_missing_path(tmp_path):
    assert main(["fix", str(tmp_path / "nope.py")]) == 2


def test_notebooks_are_fixed_in_their_cells(tmp_path, capsys):
    import json

    cells = [{"cell_type": "code", "source": BUGGY, "metadata": {}, "outputs": [], "execution_count": None}]
    notebook = write(tmp_path / "train.ipynb", json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                                           "nbformat_minor": 5}).encode())
    assert main(["fix", str(tmp_path)]) == 0
    assert json.loads(notebook.read_bytes())["cells"][0]["source"] == FIXED  # more in test_fix_notebooks.py
    assert stat.S_IMODE(notebook.stat().st_mode) == 0o640
    assert f"{notebook}:cell 1:4:9: MG101 fixed" in capsys.readouterr().out


def test_crash_mid_write_leaves_old_file_and_no_temporary(tmp_path, monkeypatch):
    first = write(tmp_path / "a.py", BUGGY.encode())
    second = write(tmp_path / "b.py", BUGGY.encode())
    calls = []

    def crash_on_second(handle, data):
        calls.append(1)
        if len(calls) == 2:
            handle.write(data[: len(data) // 2])
            raise KeyboardInterrupt  # the user hits Ctrl-C halfway through writing b.py
        handle.write(data)

    monkeypatch.setattr(fixer_files, "_write_all", crash_on_second)
    with pytest.raises(KeyboardInterrupt):
        main(["fix", str(tmp_path)])
    assert first.read_bytes() == FIXED.encode()  # done before the crash: new
    assert second.read_bytes() == BUGGY.encode()  # interrupted: old, not half-written
    assert leftovers(tmp_path) == []


def test_crash_at_rename_leaves_old_file(tmp_path, monkeypatch):
    target = write(tmp_path / "a.py", BUGGY.encode())

    def failing_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(fixer_files.os, "replace", failing_replace)
    with pytest.raises(OSError):
        fixer_files.atomic_write(str(target), FIXED.encode())
    assert target.read_bytes() == BUGGY.encode()
    assert leftovers(tmp_path) == []


def test_symlink_target_is_fixed_and_link_kept(tmp_path):
    real = write(tmp_path / "real.py", BUGGY.encode())
    link = tmp_path / "link.py"
    link.symlink_to(real)
    assert main(["fix", str(link)]) == 0
    assert link.is_symlink() and real.read_bytes() == FIXED.encode()


def test_scope_fixes_are_all_or_nothing(tmp_path):
    # The model cannot move after the strategy (a name read later is bound from it first);
    # moving compile() in alone turns a program that trains on one replica into one Keras 3
    # stops in fit().
    from mirrorguard.fixer.fix import fix_source

    source = (
        "import tensorflow as tf\n\n"
        "model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])\n"
        "params = model.count_params()\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "model.compile(optimizer='adam', loss='mse')\n"
        "ds = tf.data.Dataset.range(8).batch(64)\n"
        "model.fit(ds)\n"
        "print(params)\n"
    )
    result = fix_source(source, "t.py", unsafe=True)
    reasons = {finding.code: why for finding, why in result.remaining}
    assert "with strategy.scope()" not in result.text
    assert "`params = model.count_params()`) uses `model`" in reasons["MG101"]
    assert reasons["MG102"].startswith("it moves into the scope together with a finding that cannot move")
    # Fixes outside the group still apply.
    assert [finding.code for finding in result.fixed] == ["MG201"]
    assert "batch(64 * strategy.num_replicas_in_sync)" in result.text


def test_an_unrelated_object_still_moves_when_another_group_cannot(tmp_path):
    from mirrorguard.fixer.fix import fix_source

    source = (
        "import tensorflow as tf\n\n"
        "model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])\n"
        "params = model.count_params()\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "model.compile(optimizer='adam', loss='mse')\n"
        "other = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])\n"
        "other.compile(optimizer='adam', loss='mse')\n"
        "print(params)\n"
    )
    result = fix_source(source, "t.py")
    assert "with strategy.scope():\n    other = tf.keras.Sequential" in result.text
    assert "\n    other.compile(" in result.text
    assert "\nmodel.compile(optimizer='adam', loss='mse')\n" in result.text  # held with its model
