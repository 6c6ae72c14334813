"""What pre-commit's start-up pays for (issue 16): only what the file needs is imported.

A run over files without a strategy (most pre-commit runs) loads neither the
rules nor the semantic model; a file with one loads them, and never the fixer,
libcst or the TOML reader when no configuration file asks for mirrorguard.
Each case runs in a fresh interpreter, as flake8 or ``mirrorguard check`` runs.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# Modules a start-up may pay for only when a file needs them.
HEAVY = ("mirrorguard.checker.rules.base", "mirrorguard.checker.semantic", "mirrorguard.checker.notebooks",
         "tomllib", "libcst", "mirrorguard.fixer")
NO_STRATEGY = "import numpy as np\nx = np.zeros(3)\n"
STRATEGY = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
RUNS = {
    "flake8": 'from flake8.main.cli import main\ntry:\n    main(["--isolated", "--select", "MG", "train.py"])\n'
              "except SystemExit:\n    pass\n",
    "check": 'from mirrorguard.cli import main\nmain(["check", "--quiet", "train.py"])\n',
}


def loaded(tmp_path, run: str, text: str) -> list[str]:
    # A pyproject.toml without [tool.mirrorguard], as most repositories have: not parsed.
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    (tmp_path / "train.py").write_text(text)
    probe = RUNS[run] + textwrap.dedent(f"""\
        import sys
        print([m for m in {HEAVY!r} if m in sys.modules])
        """)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                            timeout=120)
    return result.stdout.strip().splitlines()[-1:], result.stderr


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_file_without_a_strategy_loads_no_rule_and_no_model(tmp_path, run):
    heavy, stderr = loaded(tmp_path, run, NO_STRATEGY)
    assert heavy == ["[]"], stderr


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_file_with_a_strategy_loads_the_rules_and_the_model_only(tmp_path, run):
    heavy, stderr = loaded(tmp_path, run, STRATEGY)
    assert heavy == ["['mirrorguard.checker.rules.base', 'mirrorguard.checker.semantic']"], stderr


def test_codes_listed_without_loading_match_the_rules():
    from mirrorguard.checker.rules import ALL_RULES, CODES

    assert CODES == tuple(rule.code for rule in ALL_RULES)


def test_the_runner_spells_the_notebook_suffix_as_the_notebook_reader_does():
    from mirrorguard.checker import notebooks, runner

    assert runner.NOTEBOOK_SUFFIX == notebooks.NOTEBOOK_SUFFIX
