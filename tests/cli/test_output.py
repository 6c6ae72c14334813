"""What ``mirrorguard check`` prints and where: formats, colour, output file, exit codes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mirrorguard.cli import main
from tests.cli.sarif_schema import official_validator


CORPUS = Path(__file__).resolve().parents[1] / "corpus"
NOTEBOOK = CORPUS / "notebooks" / "mg101_save_and_load_outside.ipynb"
MIRRORGUARD = [sys.executable, "-m", "mirrorguard.cli"]
BAD = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
with strategy.scope():
\tmodel.compile(optimizer="adam", loss="mse")
ds = ds.batch(64)
"""
MG101 = ("MG101 `tf.keras.Sequential(...)` builds a Keras model outside `strategy.scope()`; "
         "build it inside `with strategy.scope():`")
MG201 = ("MG201 global batch size `64` is not scaled by `strategy.num_replicas_in_sync`; "
         "use a per-replica size times `strategy.num_replicas_in_sync`")


def run(capsys, monkeypatch, cwd: Path, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(BAD)
    return tmp_path


def test_full_format_shows_the_line_and_a_caret_under_the_code(project, capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, project, "--output-format", "full", "train.py")
    assert code == 1
    assert out.split("\n") == [
        f"train.py:4:9: {MG101}",
        "  |",
        "4 | model = tf.keras.Sequential([tf.keras.layers.Dense(1)])",
        "  |         " + "^" * 47 + " MG101",
        "  |",
        "",
        f"train.py:7:15: {MG201}",
        "  |",
        "7 | ds = ds.batch(64)",
        "  |               ^^ MG201",
        "  |",
        "",
        "Found 2 findings in 1 file (1 file checked); 1 fixable with `mirrorguard fix` (1 more with `--unsafe-fixes`).",
        "",
    ]
    # flake8's spelling, and the old --format flag, give the same.
    assert run(capsys, monkeypatch, project, "--show-source", "train.py")[1] == out
    assert run(capsys, monkeypatch, project, "--format", "full", "train.py")[1] == out


def test_full_format_in_a_notebook_shows_the_cells_line(tmp_path, capsys, monkeypatch):
    shutil.copy(NOTEBOOK, tmp_path / "nb.ipynb")
    _, out, _ = run(capsys, monkeypatch, tmp_path, "-q", "--output-format", "full", "--select", "MG104", "nb.ipynb")
    lines = out.splitlines()
    assert lines[0].startswith("nb.ipynb:cell 6:1:24: MG104 ")
    assert lines[2].startswith("1 | ") and "load_model(" in lines[2]
    assert lines[3] == "  | " + " " * 23 + "^" * (lines[3].count("^")) + " MG104"
    assert lines[2][4 + 23:].startswith("tf.keras.models.load_model(")


def _tty_output(args: list[str], cwd: Path, env: dict) -> str:
    """The command's stdout when it is a terminal (a pseudo-terminal)."""
    master, slave = os.openpty()
    try:
        subprocess.run(args, cwd=cwd, stdout=slave, stderr=subprocess.DEVNULL, env=env, timeout=120)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal is closed and drained
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_and_never_when_no_color_is_set(project):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    coloured = _tty_output([*MIRRORGUARD, "check", "-q", "train.py"], project, env)
    assert "\x1b[1mtrain.py\x1b[0m" in coloured and "\x1b[1;31mMG101\x1b[0m" in coloured
    plain = _tty_output([*MIRRORGUARD, "check", "-q", "train.py"], project, {**env, "NO_COLOR": "1"})
    assert "\x1b[" not in plain and f"train.py:4:9: {MG101}" in plain
    piped = subprocess.run([*MIRRORGUARD, "check", "-q", "train.py"], cwd=project, env=env,
                           capture_output=True, text=True)
    assert "\x1b[" not in piped.stdout
    forced = subprocess.run([*MIRRORGUARD, "check", "-q", "train.py"], cwd=project,
                            env={**env, "FORCE_COLOR": "1"}, capture_output=True, text=True)
    assert "\x1b[1;31mMG101\x1b[0m" in forced.stdout
    not_forced = subprocess.run([*MIRRORGUARD, "check", "-q", "train.py"], cwd=project,
                                env={**env, "FORCE_COLOR": "0"}, capture_output=True, text=True)
    assert "\x1b[" not in not_forced.stdout


def test_output_file_gets_the_report_and_stdout_nothing(project, capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, project, "--output-file", "report.txt", "train.py")
    assert code == 1 and out == ""
    written = (project / "report.txt").read_text()
    assert written.splitlines()[0] == f"train.py:4:9: {MG101}" and written.splitlines()[-1].startswith("Found 2")
    code, out, err = run(capsys, monkeypatch, project, "--output-format", "json", "-o", "report.json", "train.py")
    assert [r["code"] for r in json.loads((project / "report.json").read_text())] == ["MG101", "MG201"]
    assert out == "" and err.startswith("Found 2")


def test_output_file_that_cannot_be_written_is_exit_2(project, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, project, "--output-file", "no/such/folder/r.txt", "train.py")
    assert code == 2 and "mirrorguard: error: --output-file no/such/folder/r.txt: cannot write" in err


def test_exit_zero_keeps_findings_but_exits_0_and_usage_errors_still_2(project, capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, project, "--exit-zero", "train.py")
    assert code == 0 and f"train.py:4:9: {MG101}" in out
    assert run(capsys, monkeypatch, project, "--exit-zero", "missing.py")[0] == 2


def test_paths_are_relative_to_the_current_folder_without_dot_slash(project, capsys, monkeypatch):
    (project / "pkg").mkdir()
    shutil.copy(project / "train.py", project / "pkg" / "deep.py")
    _, out, _ = run(capsys, monkeypatch, project, "-q", "--select", "MG101", ".")
    assert [line.split(":")[0] for line in out.splitlines()] == ["train.py", "pkg/deep.py"]
    _, out, _ = run(capsys, monkeypatch, project / "pkg", "-q", "--select", "MG101", str(project / "pkg"),
                    "../train.py")
    # Inside the current folder: relative; outside: absolute, as ruff shows them.
    assert [line.split(":")[0] for line in out.splitlines()] == ["deep.py", str(project / "train.py")]


def test_github_format_paths_are_relative_to_the_workspace(project, capsys, monkeypatch):
    (project / "pkg").mkdir()
    shutil.copy(project / "train.py", project / "pkg" / "deep.py")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(project))
    _, out, _ = run(capsys, monkeypatch, project / "pkg", "-q", "--format", "github", "--select", "MG101",
                    "deep.py")
    assert out.startswith("::error file=pkg/deep.py,line=4,col=9,title=MG101 ")
    monkeypatch.delenv("GITHUB_WORKSPACE")
    _, out, _ = run(capsys, monkeypatch, project / "pkg", "-q", "--format", "github", "--select", "MG101",
                    "deep.py")
    assert out.startswith("::error file=deep.py,line=4,col=9,title=MG101 ")


def test_sarif_regions_span_the_code_and_notebook_results_point_at_the_json_line(project, capsys, monkeypatch):
    shutil.copy(NOTEBOOK, project / "nb.ipynb")
    code, out, _ = run(capsys, monkeypatch, project, "--output-format", "sarif", ".")
    log = json.loads(out)
    official_validator().validate(log)
    results = log["runs"][0]["results"]
    regions = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"]):
               r["locations"][0]["physicalLocation"].get("region") for r in results}
    assert regions[("train.py", "MG101")] == {"startLine": 4, "startColumn": 9, "endLine": 4, "endColumn": 56}
    assert regions[("train.py", "MG201")] == {"startLine": 7, "startColumn": 15, "endLine": 7, "endColumn": 17}
    # The notebook's JSON line that holds the flagged source line.
    notebook_lines = NOTEBOOK.read_text().splitlines()
    for (uri, rule), region in regions.items():
        if uri == "nb.ipynb":
            text = notebook_lines[region["startLine"] - 1]
            expected = "load_model(" if rule == "MG104" else "get_model()"
            assert expected in text and text.strip().startswith('"'), (rule, text)
    assert {rule for uri, rule in regions if uri == "nb.ipynb"} == {"MG101", "MG102", "MG104"}
    assert code == 1


def test_notebook_lines_of_a_source_held_as_one_string(tmp_path):
    from mirrorguard.checker.sarif import notebook_source_lines

    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# title\n"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "source": "a = 1\nb = 2\n"},
             {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["x = [\n", "  1,", " 2]\n", "y = 3"]}]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))
    lines = path.read_text().splitlines()
    found = notebook_source_lines(str(path))
    assert [len(cell) for cell in found] == [2, 3]
    assert all('"a = 1\\nb = 2\\n"' in lines[n - 1] for n in found[0])
    assert [lines[n - 1].strip() for n in found[1]] == ['"x = [\\n",', '"  1,",', '"y = 3"']
