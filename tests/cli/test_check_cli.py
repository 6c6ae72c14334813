"""``mirrorguard check`` as users run it: formats, configuration, parallel and cross-file runs.

Most tests call ``main()`` in-process (fast); a few run the installed command
in a subprocess where the real process matters (exit codes, pools, stdout).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest


from mirrorguard.cli import main
from tests.cli.sarif_schema import official_validator

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MIRRORGUARD = [sys.executable, "-m", "mirrorguard.cli"]

BAD = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""
CLEAN = """\
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


def run(capsys, *args, cwd: Path | None = None) -> tuple[int, str, str]:
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = main(["check", *map(str, args)])
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    return code, out, err


# -- text output, summary, statistics, exit codes --------------------------------

def test_text_output_summary_and_exit_codes(tmp_path, capsys):
    write(tmp_path, {"bad.py": BAD, "clean.py": CLEAN, "other.txt": BAD})
    code, out, _ = run(capsys, ".", cwd=tmp_path)
    assert code == 1
    assert out.splitlines() == [
        "bad.py:4:9: MG101 `tf.keras.Sequential(...)` builds a Keras model outside `strategy.scope()`; "
        "build it inside `with strategy.scope():`",
        "Found 1 finding in 1 file (2 files checked); 1 fixable with `mirrorguard fix`.",
    ]
    assert run(capsys, "clean.py", cwd=tmp_path)[:2] == (0, "All checks passed (1 file checked).\n")


def test_quiet_prints_findings_only_and_statistics_count_by_code(tmp_path, capsys):
    write(tmp_path, {"a.py": BAD, "b.py": BAD.replace("model.compile", "pass  #")})
    code, out, _ = run(capsys, "-q", ".", cwd=tmp_path)
    assert code == 1 and len(out.splitlines()) == 2 and all(": MG101 " in line for line in out.splitlines())
    _, out, _ = run(capsys, "--statistics", "--select", "MG1", str(CORPUS / "buggy"))
    lines = out.splitlines()
    stats = [line for line in lines if re.fullmatch(r"\s*\d+  MG\d+  [a-z-]+", line)]
    findings = [line for line in lines if ": MG" in line]
    counts = Counter(line.split(": ")[1].split()[0] for line in findings)
    assert len(stats) == len(counts) >= 4 and len(lines) == len(findings) + len(stats) + 1
    assert [(int(n), code) for n, code, _ in map(str.split, stats)] == sorted(
        ((n, code) for code, n in counts.items()), key=lambda item: (-item[0], item[1]))
    from mirrorguard.checker.rules import RULES_BY_CODE

    assert all(line.split()[2] == RULES_BY_CODE[line.split()[1]].name for line in stats)
    checked = len(list((CORPUS / "buggy").glob("*.py")))
    from mirrorguard.checker.rules import RULES_BY_CODE

    # The count is what `fix` then fixes (issue 17): some findings of rules with a fix are refused.
    main(["fix", "--diff", "--select", "MG1", str(CORPUS / "buggy")])
    safe = sum(line.endswith(" fixable") for line in capsys.readouterr().err.splitlines())
    with_a_fix = sum(n for code, n in counts.items() if RULES_BY_CODE[code].fix_safety == "safe")
    assert 0 < safe < with_a_fix < len(findings)  # MG101-MG105 have a safe fix, MG106 none
    assert lines[-1] == (
        f"Found {len(findings)} findings in {len({f.split(':')[0] for f in findings})} files ({checked} files checked)"
        f"; {safe} fixable with `mirrorguard fix`."
    )


def test_missing_path_is_reported_and_the_rest_still_checked(tmp_path, capsys):
    write(tmp_path, {"bad.py": BAD})
    code, out, err = run(capsys, "nowhere.py", "bad.py", cwd=tmp_path)
    assert code == 2
    assert "mirrorguard: error: nowhere.py: no such file or directory" in err
    assert "bad.py:4:9: MG101" in out


def test_unreadable_file_is_mg000_and_the_run_goes_on(tmp_path, capsys, monkeypatch):
    write(tmp_path, {"locked.py": CLEAN, "bad.py": BAD})
    # chmod 0 does not stop root (CI runs as root), so the refusal is simulated.
    real_open = open

    def refusing_open(path, *args, **kwargs):
        if str(path).endswith("locked.py"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("mirrorguard.checker.source.open", refusing_open, raising=False)
    code, out, _ = run(capsys, "-q", ".", cwd=tmp_path)
    assert code == 1
    assert "locked.py:1:1: MG000 cannot read: Permission denied" in out and "bad.py:4:9: MG101" in out


def test_dangling_link_is_mg000_and_the_run_goes_on(tmp_path, capsys):
    write(tmp_path, {"bad.py": BAD})
    (tmp_path / "gone.py").symlink_to(tmp_path / "deleted.py")
    code, out, _ = run(capsys, "-q", ".", cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[1] == "gone.py:1:1: MG000 cannot read: No such file or directory"


def test_undecodable_file_is_mg000_and_the_run_goes_on(tmp_path, capsys):
    write(tmp_path, {"bad.py": BAD})
    (tmp_path / "junk.py").write_bytes(b"\x00\xff\xfe binary")
    code, out, _ = run(capsys, "-q", "junk.py", "bad.py", cwd=tmp_path)
    assert code == 1 and out.startswith("junk.py:1:1: MG000 ") and "bad.py:4:9: MG101" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--select", "E501"], "invalid code 'E501' in --select"),
        (["--ignore", "MG1,nope"], "invalid code 'nope' in --ignore"),
        (["--strategy-names", "my-strategy"], "invalid name 'my-strategy' in --strategy-names"),
        (["--jobs", "0"], "argument --jobs/-j: invalid value '0'"),
        (["--jobs", "many"], "argument --jobs/-j: invalid value 'many'"),
        (["--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["--config", "missing.toml"], "--config missing.toml: no such file"),
    ],
)
def test_wrong_arguments_are_exit_2_with_the_bad_value_quoted(tmp_path, capsys, args, message):
    write(tmp_path, {"bad.py": BAD})
    code, out, err = run(capsys, *args, "bad.py", cwd=tmp_path)
    assert code == 2 and message in err and out == ""


# -- formats ----------------------------------------------------------------------

def test_json_has_cell_for_notebooks_only(capsys):
    code, out, err = run(capsys, "--format", "json", CORPUS / "notebooks", CORPUS / "buggy" / "mg102_compile_after_scope.py")
    records = json.loads(out)
    assert code == 1 and err.startswith("Found ")  # the summary stays off stdout
    assert {tuple(sorted(r)) for r in records if r["path"].endswith(".py")} == {
        ("code", "column", "end_column", "end_line", "fix", "line", "message", "name", "path", "url")}
    nb = [r for r in records if r["path"].endswith("mg101_save_and_load_outside.ipynb")]
    assert [(r["cell"], r["line"], r["column"], r["code"]) for r in nb] == [
        (4, 1, 9, "MG101"), (4, 1, 9, "MG102"), (6, 1, 24, "MG104")]


def test_text_names_the_cell_for_notebooks(capsys, tmp_path):
    # A path outside the current folder is shown absolute, as ruff shows it.
    _, out, _ = run(capsys, "-q", CORPUS / "notebooks" / "mg101_save_and_load_outside.ipynb", cwd=tmp_path)
    assert out.splitlines()[0].startswith(f"{CORPUS}/notebooks/mg101_save_and_load_outside.ipynb:cell 4:1:9: MG101 ")


def test_sarif_validates_against_the_sarif_2_1_0_schema(capsys, tmp_path):
    write(tmp_path, {"pkg/bad file.py": BAD, "clean.py": CLEAN})
    shutil.copy(CORPUS / "notebooks" / "mg101_save_and_load_outside.ipynb", tmp_path / "nb.ipynb")
    code, out, _ = run(capsys, "--format", "sarif", ".", cwd=tmp_path)
    log = json.loads(out)
    official_validator().validate(log)
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules][:3] == ["MG000", "MG001", "MG101"]
    mg101 = rules[2]
    assert mg101["name"] == "model-built-outside-strategy-scope"
    assert mg101["helpUri"].endswith("#mg101") and mg101["help"]["markdown"].startswith("# model-built")
    assert "## Why is this bad?" in mg101["fullDescription"]["text"]
    by_uri = {}
    for r in run_["results"]:
        by_uri.setdefault(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r)
    result = by_uri["pkg/bad%20file.py"]
    assert result["ruleId"] == "MG101" and rules[result["ruleIndex"]]["id"] == "MG101"
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 4, "startColumn": 9, "endLine": 4, "endColumn": 56}
    notebook = by_uri["nb.ipynb"]
    assert notebook["message"]["text"].startswith("cell 4, line 1, column 9: ")
    assert run_["invocations"] == [{"executionSuccessful": True, "exitCode": 1}] and code == 1


def test_schema_rejects_what_code_scanning_would():
    validator = official_validator()
    good = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [
        {"message": {"text": "m"}, "level": "error"}]}]}
    assert validator.is_valid(good)
    for bad in (
        {"version": "2.0.0", "runs": []},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "fatal", "message": {"text": "m"}}]}]},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]},
        {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "unknownProperty": 1}}}]},
    ):
        assert not validator.is_valid(bad), bad


def test_github_workflow_commands_escape_properties_and_data(tmp_path, capsys):
    write(tmp_path, {"we,ird:name.py": BAD})
    shutil.copy(CORPUS / "notebooks" / "mg101_save_and_load_outside.ipynb", tmp_path / "nb.ipynb")
    code, out, _ = run(capsys, "--format", "github", "-q", "we,ird:name.py", "nb.ipynb", cwd=tmp_path)
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == (
        "::error file=we%2Cird%3Aname.py,line=4,col=9,title=MG101 model-built-outside-strategy-scope::"
        "`tf.keras.Sequential(...)` builds a Keras model outside `strategy.scope()`; build it inside "
        "`with strategy.scope():`"
    )
    # line= is the line of the .ipynb file that holds cell 4's first line (`model = get_model()`).
    assert lines[1].startswith("::error file=nb.ipynb,line=78,title=MG101 model-built-outside-strategy-scope::"
                               "cell 4, line 1, column 9: `get_model()` builds")


def test_github_escaping_of_percent_and_newlines():
    from mirrorguard.checker.findings import Finding
    from mirrorguard.checker.report import github_line

    finding = Finding("a%b.py", 1, 2, "MG101", "n", "50% of\r\nit")
    assert github_line(finding) == "::error file=a%25b.py,line=1,col=2,title=MG101 n::50%25 of%0D%0Ait"


# -- configuration ----------------------------------------------------------------

PYPROJECT = """\
[project]
name = "trainer"

[tool.mirrorguard]
ignore = ["MG102"]
exclude = ["scratch/*"]
per-file-ignores = {"tests/*" = ["MG1"]}
strategy-names = ["dist"]
"""

HIDDEN_STRATEGY = """\
import tensorflow as tf
from cluster import connect

dist = connect()
model = tf.keras.Sequential()
with dist.scope():
    pass
model.compile(optimizer="adam", loss="mse")
"""


def test_pyproject_found_walking_up_from_the_checked_paths(tmp_path, capsys):
    project = write(tmp_path / "project", {
        "pyproject.toml": PYPROJECT,
        "src/train.py": HIDDEN_STRATEGY,
        "scratch/try.py": BAD,
        "tests/test_train.py": BAD,
    })
    # Run from elsewhere, naming a sub-folder: the file two levels up still applies.
    code, out, _ = run(capsys, "-q", project / "src", project / "scratch", project / "tests", cwd=tmp_path)
    assert code == 1
    # strategy-names puts `dist` in play; MG102 is ignored; scratch/ excluded; tests/ per-file ignored.
    assert [line.split(": ")[1].split()[0] for line in out.splitlines()] == ["MG101"]
    assert out.startswith("project/src/train.py:5:9: MG101 ")
    # Without the configuration `dist` is not known to be a strategy.
    assert run(capsys, "-q", "--isolated", project / "src", cwd=tmp_path)[:2] == (0, "")


def test_flags_override_the_file(tmp_path, capsys):
    write(tmp_path, {"pyproject.toml": PYPROJECT, "train.py": HIDDEN_STRATEGY})
    _, out, _ = run(capsys, "-q", "--ignore", "", "--select", "MG102", "train.py", cwd=tmp_path)
    assert [line.split()[:2] for line in out.splitlines()] == [["train.py:8:1:", "MG102"]]
    _, out, _ = run(capsys, "-q", "--strategy-names", "other", "train.py", cwd=tmp_path)
    assert out == ""  # `dist` no longer names a strategy
    _, out, _ = run(capsys, "-q", "--isolated", "train.py", cwd=tmp_path)
    assert out == ""
    _, out, _ = run(capsys, "-q", "--exclude", "nothing", ".", cwd=tmp_path)
    assert "train.py:5:9: MG101" in out


def test_extend_select_adds_to_the_selection(tmp_path, capsys):
    write(tmp_path, {"pyproject.toml": '[tool.mirrorguard]\nselect = ["MG102"]\nextend-select = ["MG101"]\n',
                     "bad.py": BAD.replace("with strategy.scope():\n    model", "model")})
    _, out, _ = run(capsys, "-q", "bad.py", cwd=tmp_path)
    assert [line.split()[1] for line in out.splitlines()] == ["MG101", "MG102"]


@pytest.mark.parametrize(
    "table, message",
    [
        ('select = "MG1"', "invalid value 'MG1' for `select` in [tool.mirrorguard] of"),
        ('ignore = ["E501"]', "invalid code 'E501' in `ignore` in [tool.mirrorguard]"),
        ('strategy-names = ["not a name"]', "invalid name 'not a name' in `strategy-names`"),
        ('model-factories = [3]', "invalid name 3 in `model-factories`"),
        ('per-file-ignores = {"tests/*" = ["X1"]}', "invalid code 'X1' in 'tests/*' of `per-file-ignores`"),
        ('exclude = [""]', "invalid pattern '' in `exclude`"),
        ('strategy_names = ["s"]', "unknown key 'strategy_names' in [tool.mirrorguard] (did you mean strategy-names?)"),
        ('select = [', "invalid TOML"),
    ],
)
def test_bad_configuration_is_a_clear_error_exit_2(tmp_path, table, message):
    write(tmp_path, {"pyproject.toml": f"[tool.mirrorguard]\n{table}\n", "bad.py": BAD})
    result = subprocess.run([*MIRRORGUARD, "check", "bad.py"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("mirrorguard: error: ") and message in result.stderr
    assert str(tmp_path / "pyproject.toml") in result.stderr and result.stdout == ""


# -- parallel runs ----------------------------------------------------------------

def test_output_is_the_same_whatever_the_number_of_processes(tmp_path):
    shutil.copytree(CORPUS, tmp_path / "corpus")
    outputs = {
        jobs: subprocess.run([*MIRRORGUARD, "check", "--jobs", str(jobs), "."], cwd=tmp_path,
                             capture_output=True, text=True)
        for jobs in (1, 2, 5)
    }
    assert {r.returncode for r in outputs.values()} == {1}
    assert outputs[1].stdout == outputs[2].stdout == outputs[5].stdout
    assert outputs[1].stdout.count("\n") > 60


# -- cross-file -------------------------------------------------------------------

MODELS = """\
import tensorflow as tf

def build_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    return model

def make_optimizer():
    return tf.keras.optimizers.Adam(1e-3)

def build_in_scope(strategy):
    with strategy.scope():
        return tf.keras.Sequential()
"""


def test_helpers_imported_from_checked_modules_are_judged_at_the_call_site(tmp_path, capsys):
    write(tmp_path, {
        "models.py": MODELS,
        "train.py": """\
            import tensorflow as tf
            from models import build_model, build_in_scope

            strategy = tf.distribute.MirroredStrategy()
            model = build_model()
            inner = build_in_scope(strategy)
            with strategy.scope():
                fine = build_model()
            """,
        "trainer/__init__.py": "",
        "trainer/nets.py": MODELS,
        "trainer/task.py": """\
            import tensorflow as tf
            import trainer.nets as m
            from .nets import build_model as make_net

            strategy = tf.distribute.MirroredStrategy()
            a = m.build_model()
            b = make_net()
            """,
    })
    code, out, _ = run(capsys, "-q", "--select", "MG101", ".", cwd=tmp_path)
    assert code == 1
    assert [line.split(": MG")[0] for line in out.splitlines()] == [
        "train.py:5:9", "trainer/task.py:6:5", "trainer/task.py:7:5"]
    # Without cross-file analysis none of these helpers is known.
    assert run(capsys, "-q", "--no-cross-file", ".", cwd=tmp_path)[:2] == (0, "")


def test_a_module_imported_from_its_package_is_judged_too(tmp_path, capsys):
    write(tmp_path, {"trainer/__init__.py": "", "trainer/nets.py": MODELS, "trainer/task.py": """\
        import tensorflow as tf
        from . import nets
        strategy = tf.distribute.MirroredStrategy()
        model = nets.build_model()
        """})
    _, out, _ = run(capsys, "-q", "--select", "MG101", ".", cwd=tmp_path)
    assert out.startswith("trainer/task.py:4:9: MG101")


def test_imported_module_outside_the_given_files_still_counts(tmp_path, capsys):
    # pre-commit passes only the changed files: models.py unchanged, train.py staged.
    write(tmp_path, {"models.py": MODELS, "train.py": """\
        import tensorflow as tf
        from models import build_model
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        """})
    code, out, _ = run(capsys, "train.py", cwd=tmp_path)
    assert code == 1 and out.splitlines()[:2] == [
        "train.py:4:9: MG101 `build_model()` builds a Keras model outside `strategy.scope()`; call it inside "
        "`with strategy.scope():`",
        "train.py:4:9: MG102 `build_model()` calls `compile()` outside `strategy.scope()`; call it inside "
        "`with strategy.scope():`",
    ]


def test_a_notebook_can_import_a_helper_from_the_tree(tmp_path, capsys):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": source} for source in (
        "import tensorflow as tf\nfrom models import build_model\nstrategy = tf.distribute.MirroredStrategy()",
        "model = build_model()",
    )]
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    write(tmp_path, {"models.py": MODELS})
    _, out, _ = run(capsys, "-q", "--select", "MG101", "nb.ipynb", cwd=tmp_path)
    assert out.startswith("nb.ipynb:cell 2:1:9: MG101 `build_model()` builds")


def test_module_with_the_same_name_in_a_virtualenv_is_not_the_tree(tmp_path, capsys):
    write(tmp_path, {".venv/lib/models.py": MODELS, "lib/train.py": """\
        import tensorflow as tf
        from models import build_model
        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        """})
    assert run(capsys, "-q", "lib/train.py", cwd=tmp_path)[:2] == (0, "")
