"""What a newcomer hits first (issue 19): exit codes, warnings, flags ruff and flake8 users expect.

Each test fails on the tree before the change it names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from mirrorguard.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
ROOT = Path(__file__).resolve().parents[2]
BAD = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""


def run(capsys, monkeypatch, cwd: Path, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    if stdin is not None:
        import io

        monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": io.BytesIO(stdin)})())
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def env() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


# 1. A closed pipe keeps the exit status.
def test_a_closed_pipe_never_turns_findings_into_a_pass(tmp_path):
    for i in range(30):
        (tmp_path / f"t{i}.py").write_text(BAD)
    process = subprocess.Popen([sys.executable, "-m", "mirrorguard", "check", "--output-format", "json",
                                "--jobs", "1", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env())
    process.stdout.close()  # the reader is gone before the first write: `| head -0`
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 1, err
    assert "BrokenPipeError" not in err and "Traceback" not in err


# 2. A missing path is no pass.
def test_a_missing_path_does_not_say_all_checks_passed(tmp_path, capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, tmp_path, "check", "nonexistent.py")
    assert code == 2 and "nonexistent.py: no such file or directory" in err
    assert "All checks passed" not in out
    assert "errors" in out


# 3. A path that yields nothing is named.
def test_an_excluded_path_is_named_in_a_warning(tmp_path, capsys, monkeypatch):
    (tmp_path / "scratch").mkdir()
    (tmp_path / "scratch" / "t.py").write_text(BAD)
    (tmp_path / "mirrorguard.toml").write_text('exclude = ["scratch/*", "scratch"]\n')
    code, out, err = run(capsys, monkeypatch, tmp_path, "check", "scratch", "scratch/t.py")
    assert code == 0 and "All checks passed" not in out and out.startswith("No files checked")
    assert "warning: scratch: not checked: the `exclude` setting covers it" in err
    assert "warning: scratch/t.py: not checked" in err
    (tmp_path / "empty").mkdir()
    code, out, err = run(capsys, monkeypatch, tmp_path, "check", "empty")
    assert "warning: empty: no Python files or notebooks found" in err


# 4. (parity with flake8: tests/flake8/test_parity.py) The MG000 hint does not ask for what is there.
def test_the_decode_hint_does_not_ask_to_declare_a_declared_encoding():
    from mirrorguard.checker.source import decode

    declared = decode(b"# -*- coding: utf-8 -*-\nx = '\xe9'\n")
    assert "the file declares utf-8" in declared.reason and "declare the encoding with" not in declared.reason
    plain = decode(b"x = 1\ny = '\xe9'\n")
    assert "declare the encoding with" in plain.reason


# 5. Standard input keeps the cross-file analysis of the file it names.
def test_stdin_with_a_filename_sees_the_helpers_it_imports(tmp_path, capsys, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "models.py").write_text("import keras\n\ndef build_model():\n    return keras.Sequential([])\n")
    train = textwrap.dedent("""\
        import tensorflow as tf
        from pkg.models import build_model

        strategy = tf.distribute.MirroredStrategy()
        model = build_model()
        """)
    (pkg / "train.py").write_text(train)
    _, from_disk, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", "pkg/train.py")
    code, from_stdin, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", "-", "--stdin-filename",
                              "pkg/train.py", stdin=train.encode())
    assert "pkg/train.py:5:9: MG101" in from_disk
    assert code == 1 and from_stdin == from_disk


# 7. Machine formats say what a finding's fix is, and MG000 has an end; --add-noqa on notebooks.
def test_json_carries_fix_applicability_url_and_an_end_for_mg000(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "broken.py").write_text("x = (\n")
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--output-format", "json", ".")
    records = {r["code"]: r for r in json.loads(out)}
    assert records["MG101"]["fix"] == {"applicability": "safe"}
    assert records["MG101"]["url"].endswith("#mg101")
    assert records["MG000"]["fix"] is None
    assert (records["MG000"]["end_line"], records["MG000"]["end_column"]) == (
        records["MG000"]["line"], records["MG000"]["column"])


def test_json_fix_is_what_the_fixer_does_not_what_the_rule_could(tmp_path, capsys, monkeypatch):
    # MG105's fix is safe, but this counter is read on the host with int(): moved into the scope
    # it would become a MirroredVariable that int() rejects, so `fix` leaves it.
    (tmp_path / "loop.py").write_text(textwrap.dedent("""\
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        global_step = tf.Variable(0, trainable=False, dtype=tf.int64)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        def train_step(x):
            global_step.assign_add(1)
            return model(x)

        for batch in dataset:
            strategy.run(train_step, args=(batch,))
            print("step", int(global_step))
        """))
    (tmp_path / "bad.py").write_text(BAD)
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--output-format", "json", ".")
    fixes = {(Path(r["path"]).name, r["code"]): r["fix"] for r in json.loads(out)}
    assert fixes[("loop.py", "MG105")] is None
    assert fixes[("bad.py", "MG101")] == {"applicability": "safe"}


def test_add_noqa_with_a_notebook_finding_is_no_usage_error(tmp_path, capsys, monkeypatch):
    import shutil

    shutil.copy(CORPUS / "notebooks" / "mg101_save_and_load_outside.ipynb", tmp_path / "nb.ipynb")
    (tmp_path / "bad.py").write_text(BAD)
    code, out, err = run(capsys, monkeypatch, tmp_path, "check", "--add-noqa", ".")
    assert code == 1  # the notebook's findings are still there: not 2, no error line
    assert "error" not in err and "does not edit notebooks" in err
    assert "# noqa: MG101" in (tmp_path / "bad.py").read_text()


# 8. Habits of ruff and flake8 users.
def test_extend_ignore_adds_to_the_configured_ignore(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "mirrorguard.toml").write_text('ignore = ["MG102"]\n')
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", "--extend-ignore", "MG101", ".")
    assert code == 0 and out == ""
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", ".")
    assert "MG101" in out and "MG102" not in out


def test_show_fixes_marks_fixable_findings_and_counts_them(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.py").write_text(BAD)
    _, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--show-fixes", ".")
    assert "bad.py:4:9: MG101 [*] " in out
    assert "Fixable with `mirrorguard fix`:" in out and "MG101" in out.split("Fixable with")[1]
    _, plain, _ = run(capsys, monkeypatch, tmp_path, "check", ".")
    assert "[*]" not in plain


def test_show_files_and_show_settings_check_nothing(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "x.py").write_text(BAD)
    (tmp_path / "mirrorguard.toml").write_text('exclude = ["skip"]\nignore = ["MG2"]\n')
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--show-files", ".")
    assert code == 0 and out.splitlines() == ["bad.py"]
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--show-settings", "bad.py")
    rows = dict(line.split(None, 1) for line in out.splitlines())
    assert code == 0 and rows["configuration"].endswith("mirrorguard.toml")
    assert "MG2" in rows["ignore"] and rows["exclude"] == "skip"


def test_python_dash_m_mirrorguard_runs_the_command(tmp_path):
    (tmp_path / "bad.py").write_text(BAD)
    result = subprocess.run([sys.executable, "-m", "mirrorguard", "check", "-q", "bad.py"], cwd=tmp_path,
                            capture_output=True, text=True, env=env(), timeout=120)
    assert result.returncode == 1 and result.stdout.startswith("bad.py:4:9: MG101 ")


def test_color_always_never_and_term_dumb(tmp_path, capsys, monkeypatch):
    (tmp_path / "bad.py").write_text(BAD)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    _, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--color", "always", "bad.py")
    assert "\x1b[" in out
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run(capsys, monkeypatch, tmp_path, "check", "--color", "never", "bad.py")
    assert "\x1b[" not in out
    from mirrorguard.checker.report import use_colour

    class Terminal:
        def isatty(self):
            return True

    assert use_colour(Terminal(), {}) and not use_colour(Terminal(), {"TERM": "dumb"})


def test_an_unknown_option_gets_a_did_you_mean(tmp_path, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, tmp_path, "check", "--extend-ignor", "MG1", ".")
    assert code == 2 and "--extend-ignor: did you mean --extend-ignore?" in err


def test_a_prefix_no_rule_has_suggests_nothing(tmp_path, capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, tmp_path, "check", "--select", "MG9", ".")
    assert code == 2 and "unknown code 'MG9'" in err and "did you mean" not in err
    code, _, err = run(capsys, monkeypatch, tmp_path, "check", "--select", "MG110", ".")
    assert "did you mean MG101?" in err


def test_unused_noqa_is_reported_and_documented(tmp_path, capsys, monkeypatch):
    source = BAD.replace("tf.keras.layers.Dense(1)])", "tf.keras.layers.Dense(1)])  # noqa: MG101, MG105")
    source = source.replace('strategy = tf.distribute.MirroredStrategy()',
                            'strategy = tf.distribute.MirroredStrategy()  # noqa: MG201, E501')
    (tmp_path / "t.py").write_text(source + "x = 1  # NOQA: mg102\n")
    code, out, _ = run(capsys, monkeypatch, tmp_path, "check", "-q", "t.py")
    lines = out.splitlines()
    assert not any(":4:9: MG101" in line for line in lines)  # used: silenced, not reported
    assert any(line.startswith("t.py:4:") and "MG001 unused `# noqa` code `MG105`" in line for line in lines)
    assert any(line.startswith("t.py:3:") and "`MG201`" in line for line in lines)
    assert not any("E501" in line for line in lines)  # another tool's code
    assert any(line.startswith("t.py:7:") and "`mg102` silences nothing" in line for line in lines)
    code, out, _ = run(capsys, monkeypatch, tmp_path, "rule", "MG001")
    assert code == 0 and out.startswith("# unused-noqa (MG001)")


# The verify subcommand belongs to mirrorguard.testkit.verify.
def test_verify_without_tensorflow_says_how_to_install_it(tmp_path):
    # A child process where TensorFlow cannot be imported, as in a bare pre-commit environment.
    (tmp_path / "m.py").write_text("def build(strategy):\n    pass\n")
    script = ("import sys; sys.modules['tensorflow'] = None\n"
              "from mirrorguard.cli import main\n"
              "raise SystemExit(main(['verify', 'm.py::build']))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert "needs tensorflow: pip install 'mirrorguard[tf]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_verify_hands_its_arguments_to_the_module(tmp_path, capsys, monkeypatch):
    import types

    module = types.ModuleType("mirrorguard.testkit.verify")
    module.add_arguments = lambda parser: parser.add_argument("target")
    module.run = lambda args: 7 if args.target == "m.py::build" else 0
    monkeypatch.setitem(sys.modules, "mirrorguard.testkit.verify", module)
    code, _, _ = run(capsys, monkeypatch, tmp_path, "verify", "m.py::build")
    assert code == 7


def test_fix_help_names_the_fixable_rules_from_the_registry(tmp_path, capsys, monkeypatch):
    from mirrorguard.checker.rules import ALL_RULES
    from mirrorguard.cli.fix import code_ranges

    code, out, _ = run(capsys, monkeypatch, tmp_path, "fix", "--help")
    text = " ".join(out.split())
    safe = code_ranges(rule.code for rule in ALL_RULES if rule.fix_safety == "safe")
    assert code == 0 and f"Apply the safe fixes ({safe})" in text
    assert code_ranges(["MG101", "MG102", "MG103", "MG105", "MG201"]) == "MG101-MG103, MG105, MG201"


def test_fix_says_an_unused_noqa_has_no_automatic_fix(tmp_path, capsys, monkeypatch):
    (tmp_path / "t.py").write_text(BAD + "x = 1  # noqa: MG102\n")
    code, out, _ = run(capsys, monkeypatch, tmp_path, "fix", "t.py")
    assert code == 1
    assert "t.py:7:8: MG001 not fixed: no automatic fix for this rule" in out
    assert "t.py:4:9: MG101 fixed" in out


def test_fix_leaves_a_file_that_does_not_decode_and_says_why(tmp_path, capsys, monkeypatch):
    data = b"# -*- coding: utf-8 -*-\n# caf\xe9\n" + BAD.encode()
    (tmp_path / "t.py").write_bytes(data)
    code, out, err = run(capsys, monkeypatch, tmp_path, "fix", "t.py")
    assert code == 1 and (tmp_path / "t.py").read_bytes() == data
    assert "t.py:6:9: MG101 not fixed: the file cannot be decoded, so it is not changed" in out
