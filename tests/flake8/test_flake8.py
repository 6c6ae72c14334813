"""flake8 driven for real: ``flake8 --select MG`` reports what ``mirrorguard check`` reports."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SCRIPTS = sorted((CORPUS / "buggy").glob("*.py")) + sorted((CORPUS / "clean").glob("*.py"))
FLAKE8 = [sys.executable, "-m", "flake8", "--isolated", "--select", "MG"]


def flake8(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*FLAKE8, *args], capture_output=True, text=True, cwd=cwd)


def mirrorguard(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mirrorguard.cli", "check", "-q", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_flake8_and_mirrorguard_check_agree_on_the_corpus():
    # Relative paths: flake8 prints paths as given, mirrorguard relative to the current folder.
    root = CORPUS.parents[1]
    paths = [str(p.relative_to(root)) for p in SCRIPTS]
    # --select MG on both sides: an explicit select turns the default-off rules (MG405) on, in both.
    ours = mirrorguard("--no-cross-file", "--jobs", "2", "--select", "MG", *paths, cwd=root)
    theirs = flake8("--jobs", "2", *paths, cwd=root)
    assert ours.returncode == theirs.returncode == 1, theirs.stderr
    # Same findings, same places, same messages (flake8 sorts by file itself).
    assert sorted(theirs.stdout.splitlines()) == sorted(ours.stdout.splitlines())
    assert len(ours.stdout.splitlines()) > 40


def test_flake8_exact_output_lines(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # noqa: E501
        model.compile(optimizer="adam", loss="mse")
        legacy = tf.keras.models.load_model("m.keras")  # noqa: MG104
        dataset = dataset.batch(64)
        """))
    result = flake8("train.py", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "train.py:4:9: MG101 `tf.keras.Sequential(...)` builds a Keras model outside `strategy.scope()`; "
        "build it inside `with strategy.scope():`",
        "train.py:5:1: MG102 `model.compile()` is called outside `strategy.scope()`; compile inside "
        "`with strategy.scope():`",
        "train.py:7:25: MG201 global batch size `64` is not scaled by `strategy.num_replicas_in_sync`; "
        "use a per-replica size times `strategy.num_replicas_in_sync`",
    ]


HIDDEN = """\
import tensorflow as tf
from cluster import connect

dist = connect()
model = tf.keras.Sequential()
with dist.scope():
    pass
"""


def test_strategy_names_option_from_command_line_and_config(tmp_path):
    (tmp_path / "train.py").write_text(HIDDEN)
    assert flake8("train.py", cwd=tmp_path).stdout == ""
    expected = "train.py:5:9: MG101"
    assert flake8("--mirrorguard-strategy-names", "dist,other", "train.py", cwd=tmp_path).stdout.startswith(expected)
    (tmp_path / "setup.cfg").write_text("[flake8]\nmirrorguard-strategy-names =\n    other,\n    dist\n")
    config_run = subprocess.run([sys.executable, "-m", "flake8", "--select", "MG", "train.py"],
                                capture_output=True, text=True, cwd=tmp_path)
    assert config_run.stdout.startswith(expected)
    # The same setting, through `mirrorguard check`.
    assert mirrorguard("--strategy-names", "dist", "train.py", cwd=tmp_path).stdout.startswith(expected)


def test_model_factories_option(tmp_path):
    (tmp_path / "train.py").write_text(textwrap.dedent("""\
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        net = create_net()
        with strategy.scope():
            pass
        """))
    assert flake8("train.py", cwd=tmp_path).stdout == ""
    result = flake8("--mirrorguard-model-factories", "create_net", "train.py", cwd=tmp_path)
    assert result.stdout.startswith("train.py:4:7: MG101 `create_net()` builds a Keras model")


@pytest.mark.parametrize("option", ["--mirrorguard-strategy-names", "--mirrorguard-model-factories"])
def test_bad_option_value_is_quoted_exit_2(tmp_path, option):
    (tmp_path / "train.py").write_text(HIDDEN)
    result = flake8(f"{option}=dist,9lives", "train.py", cwd=tmp_path)
    assert result.returncode == 2
    assert re.search(rf"flake8: error: invalid name '9lives' in {option}: expected a Python name", result.stderr)


def test_bad_option_value_in_config_is_quoted(tmp_path):
    (tmp_path / "train.py").write_text(HIDDEN)
    (tmp_path / "tox.ini").write_text("[flake8]\nmirrorguard-model-factories = build-model\n")
    result = subprocess.run([sys.executable, "-m", "flake8", "train.py"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and "invalid name 'build-model' in --mirrorguard-model-factories" in result.stderr


def test_flake8_per_file_ignores_and_noqa_apply(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "train.py").write_text(HIDDEN.replace("from cluster import connect\n", "")
                                                 .replace("connect()", "tf.distribute.MirroredStrategy()"))
    assert flake8("tests/train.py", cwd=tmp_path).stdout.startswith("tests/train.py:4:9: MG101")
    assert flake8("--per-file-ignores", "tests/*:MG1", "tests/train.py", cwd=tmp_path).stdout == ""


def test_pyproject_settings_apply_to_flake8_as_to_check(tmp_path):
    # One resolver for both: the file's nearest [tool.mirrorguard] names the strategy.
    (tmp_path / "pyproject.toml").write_text('[tool.mirrorguard]\nstrategy-names = ["dist"]\n')
    (tmp_path / "train.py").write_text(HIDDEN)
    plain = [sys.executable, "-m", "flake8", "--select", "MG", "train.py"]
    result = subprocess.run(plain, capture_output=True, text=True, cwd=tmp_path)
    assert result.stdout.startswith("train.py:5:9: MG101"), result.stderr
    assert mirrorguard("train.py", cwd=tmp_path).stdout.startswith("train.py:5:9: MG101")
    # flake8's own option overrides the file, as a flag overrides it for check.
    overridden = subprocess.run([*plain, "--mirrorguard-strategy-names", "other"], capture_output=True, text=True,
                                cwd=tmp_path)
    assert overridden.stdout == ""


def test_bad_mirrorguard_configuration_stops_flake8_with_exit_2(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.mirrorguard]\nstrategy-names = ["not a name"]\n')
    (tmp_path / "train.py").write_text(HIDDEN)
    result = subprocess.run([sys.executable, "-m", "flake8", "--select", "MG", "train.py"], capture_output=True,
                            text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert "flake8: error: invalid name 'not a name' in `strategy-names` in [tool.mirrorguard]" in result.stderr


def test_columns_agree_after_non_ascii_text(tmp_path):
    # ast counts columns in UTF-8 bytes; both front ends report characters.
    (tmp_path / "entraînement.py").write_text(textwrap.dedent("""\
        import tensorflow as tf
        stratégie = "résumé"; strategy = tf.distribute.MirroredStrategy()
        modèle = "réseau"; model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # 模型
        données = données.batch(64)
        model.fit(données)
        """), encoding="utf-8")
    theirs = flake8("entraînement.py", cwd=tmp_path)
    ours = mirrorguard("--no-cross-file", "entraînement.py", cwd=tmp_path)
    assert theirs.stdout.splitlines() == ours.stdout.splitlines()
    assert [line.split(": ")[0] for line in theirs.stdout.splitlines()] == [
        "entraînement.py:3:28", "entraînement.py:4:25",
    ]


def test_default_off_codes_match_the_rules():
    from flake8_mirrorguard import DEFAULT_OFF
    from mirrorguard.checker.rules import ALL_RULES

    assert set(DEFAULT_OFF) == {rule.code for rule in ALL_RULES if not rule.default_enabled}


def _with_path(folder):
    """The environment with ``folder`` first on PYTHONPATH (its sitecustomize runs), the rest kept."""
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH")) if p)}


def test_a_checker_bug_is_one_line_and_flake8_goes_on(tmp_path):
    # Force a bug in the checker for this run only, through a sitecustomize on the path.
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent("""\
        import mirrorguard.checker.core as core
        def broken(*args, **kwargs):
            raise ZeroDivisionError("simulated")
        core.analyse_source = broken
        """))
    (tmp_path / "train.py").write_text("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nx = 1 \n"
                                       "model = build()  # noqa: MG101\n")
    env = _with_path(tmp_path)
    result = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "MG,W291", "train.py"],
                            capture_output=True, text=True, cwd=tmp_path, env=env)
    assert "train.py:3:6: W291 trailing whitespace" in result.stdout  # flake8's own checks still ran
    assert "mirrorguard: internal error on train.py: ZeroDivisionError: simulated" in result.stderr
    assert "Traceback" not in result.stderr
    # flake8 itself reports that the file went unchecked, and fails the run.
    assert ("train.py:1:1: MG000 internal error, nothing checked: ZeroDivisionError: simulated "
            "(a bug of mirrorguard, not of this file: please report it; no rule checked this file)"
            ) in result.stdout.splitlines()
    # Nothing was judged, so no `# noqa` can be called unused (MG001 would say "remove it").
    assert "MG001" not in result.stdout
    assert result.returncode == 1


# Break one rule for a run only: a sitecustomize on the path replaces MG201's check in the
# registry (no hook in the product code). The other rules are as shipped.
BREAK_MG201 = textwrap.dedent("""\
    import dataclasses
    from mirrorguard.checker import rules
    def broken(context):
        raise ValueError("simulated bug")
        yield
    rules.ALL_RULES = tuple(dataclasses.replace(r, check=broken) if r.code == "MG201" else r
                            for r in rules.ALL_RULES)
    """)
BATCHED = textwrap.dedent("""\
    import tensorflow as tf  # noqa
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    ds = ds.batch(64)  # noqa: MG201
    """)
FAILURE = ("train.py:2:1: MG201 internal error in rule MG201 (unscaled-global-batch-size): ValueError: simulated bug "
           "(a bug of mirrorguard, not of this file: please report it; the other rules still reported)")


def _broken_run(tmp_path, *args):
    (tmp_path / "sitecustomize.py").write_text(BREAK_MG201)
    (tmp_path / "train.py").write_text(BATCHED)
    (tmp_path / "other.py").write_text("x = 1 \n")
    env = _with_path(tmp_path)
    return subprocess.run([sys.executable, "-m", "flake8", "--isolated", *args, "other.py", "train.py"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_rule_that_raises_is_reported_by_flake8_and_the_run_fails(tmp_path, jobs):
    # Issue 17 part 4: a rule that raises is our bug, never silence. flake8 reports only what a
    # plugin yields (an exception from the plugin makes flake8 drop every file's findings), so the
    # failure is a finding under the failed rule's code, on the first line no `# noqa` can hide.
    result = _broken_run(tmp_path, "--select", "MG,W291", "-j", jobs)
    assert result.returncode == 1
    assert sorted(result.stdout.splitlines()) == [
        "other.py:1:6: W291 trailing whitespace",  # the other files still checked
        FAILURE,  # names the rule and the file
        "train.py:3:9: MG101 `tf.keras.Sequential(...)` builds a Keras model outside `strategy.scope()`; "
        "build it inside `with strategy.scope():`",  # the other rules still report
    ]  # and MG001 does not call the noqa comment naming the failed rule unused
    assert "mirrorguard: train.py: internal error in rule MG201" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_failed_rule_shows_wherever_its_verdict_was_asked_for(tmp_path):
    # Selected on its own, it still shows; with the rule ignored the user asked for no verdict of it.
    assert FAILURE in _broken_run(tmp_path, "--select", "MG201").stdout.splitlines()
    ignored = _broken_run(tmp_path, "--select", "MG", "--extend-ignore", "MG201")
    assert "MG201" not in ignored.stdout and ignored.returncode == 1  # MG101 remains
