"""pre-commit for real: this checkout's hook installed in a throw-away repository.

The hook repository is a snapshot of the working tree (tracked and untracked,
not ignored, files), committed into a temporary git repository, exactly what
``pre-commit try-repo`` does; the user repository's ``.pre-commit-config.yaml``
points at it by path and revision, and ``git commit`` runs the hook.
pre-commit installs the hook with ``language: python`` (a virtualenv and
``pip install`` of the snapshot): where pip cannot reach an index or wheel
mirror the tests skip and say why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]

BAD = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""
CLEAN = BAD.replace("model = tf.keras", "with strategy.scope():\n    model = tf.keras").replace(
    "with strategy.scope():\n    model.compile", "    model.compile")


def git(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """git, with the hook's report (git commit prints it on stderr) in ``stdout`` too."""
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    result.stdout += result.stderr
    return result


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    """This checkout's working tree, committed into a temporary repository."""
    snapshot = tmp_path_factory.mktemp("hook-repo")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not name.startswith("tests/"):
            target = snapshot / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    for command in (["init", "-q"], ["add", "-A"],
                    ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "snapshot"]):
        assert git(*command, cwd=snapshot).returncode == 0
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=snapshot, capture_output=True, text=True)
    return snapshot, rev.stdout.strip()


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict:
    environment = dict(os.environ)
    environment["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    environment.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                       GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    return environment


def make_user_repo(tmp_path: Path, hook_repo, env, hook: str) -> Path:
    path, rev = hook_repo
    assert git("init", "-q", cwd=tmp_path).returncode == 0
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {path}\n    rev: {rev}\n    hooks:\n      - id: {hook}\n"
    )
    installed = subprocess.run([*PRE_COMMIT, "install", "--install-hooks"], cwd=tmp_path,
                               capture_output=True, text=True, env=env)
    if installed.returncode != 0:
        log = Path(env["PRE_COMMIT_HOME"]) / "pre-commit.log"
        detail = log.read_text()[-1500:] if log.exists() else installed.stdout + installed.stderr
        if "pip" in detail or "Could not find" in detail or "network" in detail.lower():
            pytest.skip(f"pre-commit could not install the hook's environment (offline?): {detail[-300:]}")
        pytest.fail(detail)
    git("add", ".pre-commit-config.yaml", cwd=tmp_path)
    assert git("commit", "-qm", "config", cwd=tmp_path, env=env).returncode == 0
    return tmp_path


@pytest.fixture
def user_repo(tmp_path, hook_repo, env) -> Path:
    return make_user_repo(tmp_path, hook_repo, env, "mirrorguard")


@pytest.fixture
def fixing_repo(tmp_path, hook_repo, env) -> Path:
    return make_user_repo(tmp_path, hook_repo, env, "mirrorguard-fix")


def test_bad_commit_is_blocked_and_clean_one_passes(user_repo, env):
    (user_repo / "train.py").write_text(BAD)
    (user_repo / "README.txt").write_text("model = tf.keras.Sequential()\n")  # not Python: not checked
    git("add", "train.py", "README.txt", cwd=user_repo)
    blocked = git("commit", "-m", "train", cwd=user_repo, env=env)
    assert blocked.returncode != 0
    assert "mirrorguard" in blocked.stdout and "Failed" in blocked.stdout
    assert "train.py:4:9: MG101 `tf.keras.Sequential(...)` builds a Keras model outside" in blocked.stdout
    assert git("log", "--oneline", cwd=user_repo).stdout.count("\n") == 1  # nothing committed

    (user_repo / "train.py").write_text(CLEAN)
    git("add", "train.py", cwd=user_repo)
    passed = git("commit", "-m", "train", cwd=user_repo, env=env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "mirrorguard" in passed.stdout and "Passed" in passed.stdout


def test_notebooks_are_checked_by_the_hook(user_repo, env):
    notebook = ROOT / "tests" / "corpus" / "notebooks" / "mg101_save_and_load_outside.ipynb"
    shutil.copy(notebook, user_repo / "nb.ipynb")
    git("add", "nb.ipynb", cwd=user_repo)
    blocked = git("commit", "-m", "notebook", cwd=user_repo, env=env)
    assert blocked.returncode != 0
    assert "nb.ipynb:cell 4:1:9: MG101" in blocked.stdout


def test_hook_definition_matches_the_documented_one():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    for line in ("- id: mirrorguard", "entry: mirrorguard check", "language: python",
                 "types_or: [python, pyi, jupyter]", "require_serial: true",
                 "- id: mirrorguard-fix", "entry: mirrorguard fix"):
        assert line in text


FIXED = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
"""


def test_fix_hook_fixes_the_file_and_stops_the_commit_once(fixing_repo, env):
    (fixing_repo / "train.py").write_text(BAD)
    git("add", "train.py", cwd=fixing_repo)
    first = git("commit", "-m", "train", cwd=fixing_repo, env=env)
    # The hook moved the model into the scope block; pre-commit stops the commit so it can be reviewed.
    assert first.returncode != 0
    assert "mirrorguard fix" in first.stdout and "Failed" in first.stdout
    assert "files were modified by this hook" in first.stdout
    assert "train.py:4:9: MG101 fixed" in first.stdout
    assert (fixing_repo / "train.py").read_text() == FIXED
    git("add", "train.py", cwd=fixing_repo)
    second = git("commit", "-m", "train", cwd=fixing_repo, env=env)
    assert second.returncode == 0, second.stdout
    assert "Passed" in second.stdout


def test_fix_hook_fails_on_what_it_cannot_fix(fixing_repo, env):
    (fixing_repo / "train.py").write_text(BAD.replace("model.compile", "ds = ds.batch(64)\nmodel.compile"))
    git("add", "train.py", cwd=fixing_repo)
    blocked = git("commit", "-m", "train", cwd=fixing_repo, env=env)
    assert blocked.returncode != 0
    assert "MG201 not fixed: the fix changes the global batch size" in blocked.stdout
