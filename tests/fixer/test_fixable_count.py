"""`check`'s "N fixable" counts exactly what `fix` then fixes (issue 17 part 4).

Over the whole corpus (scripts and notebooks, on temporary copies): the findings
`check --show-fixes` marks ``[*]`` are the findings `fix` reports fixed, one for one;
the summary's safe count is what `fix` fixes and its "N more with --unsafe-fixes"
is what `fix --unsafe-fixes` fixes besides. And `check` loads the fixer (libcst)
only when `--show-fixes` asks for the marks and counts.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mirrorguard.cli import main

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SUMMARY = re.compile(r"; (\d+) fixable with `mirrorguard fix`(?: \((\d+) more with `--unsafe-fixes`\))?\.$")
MARKED = re.compile(r"^(.+?:\d+:\d+): (MG\d+) \[\*\] ")
FIXED = re.compile(r"^(.+?:\d+:\d+): (MG\d+) fixed$")


def run(capsys, *args: str) -> tuple[int, list[str], list[str]]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


@pytest.mark.slow
def test_check_counts_what_fix_fixes_over_the_corpus(tmp_path, capsys, monkeypatch):
    safe_copy, unsafe_copy = tmp_path / "safe", tmp_path / "unsafe"
    shutil.copytree(CORPUS, safe_copy)
    shutil.copytree(CORPUS, unsafe_copy)
    monkeypatch.chdir(tmp_path)

    _, out, _ = run(capsys, "check", "--show-fixes", "--no-respect-gitignore", "safe")
    marked = {(place, code) for place, code in (m.groups() for m in map(MARKED.match, out) if m)}
    counted = SUMMARY.search(out[-1])
    assert counted, out[-1]
    safe, unsafe = int(counted.group(1)), int(counted.group(2) or 0)
    assert len(marked) == safe > 0 and unsafe > 0

    _, out, _ = run(capsys, "fix", "--no-respect-gitignore", "safe")
    fixed = {(place, code) for place, code in (m.groups() for m in map(FIXED.match, out) if m)}
    assert fixed == marked, (sorted(fixed - marked), sorted(marked - fixed))

    _, out, _ = run(capsys, "fix", "--unsafe-fixes", "--no-respect-gitignore", "unsafe")
    fixed_unsafe = [line for line in out if FIXED.match(line)]
    assert len(fixed_unsafe) == safe + unsafe


SCRIPT = textwrap.dedent("""\
    import tensorflow as tf
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    """)
# A finding whose fix the fixer refuses: the model is read before the strategy exists.
REFUSED = textwrap.dedent("""\
    import tensorflow as tf
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
    weights = model.get_weights()
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    print(len(weights))
    """)
# Findings of rules without a fix only.
NO_FIX = textwrap.dedent("""\
    import tensorflow as tf
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(ds, epochs=2)
    strategy = tf.distribute.MirroredStrategy()
    print("Number of devices: {}".format(strategy.num_replicas_in_sync))
    """)

PROBE = textwrap.dedent("""\
    import json, sys
    from mirrorguard.cli import main
    try:
        main({args!r})
    except SystemExit:
        pass
    print(json.dumps("libcst" in sys.modules))
    """)


def loads_libcst(args: list[str], cwd: Path) -> tuple[bool, str]:
    result = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], cwd=cwd, capture_output=True,
                            text=True, timeout=120)
    lines = result.stdout.strip().splitlines()
    return json.loads(lines[-1]), "\n".join(lines[:-1])


def test_the_fixer_is_loaded_only_to_count_fixable_findings(tmp_path):
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "refused.py").write_text(REFUSED)
    (tmp_path / "bare.py").write_text(NO_FIX)
    loaded, out = loads_libcst(["check", "--show-fixes", "train.py"], tmp_path)
    assert loaded and out.endswith("; 1 fixable with `mirrorguard fix`.")
    loaded, out = loads_libcst(["check", "--show-fixes", "refused.py"], tmp_path)
    assert loaded and "fixable" not in out  # counted by the fixer: it refuses, so none
    loaded, out = loads_libcst(["check", "train.py"], tmp_path)  # no count asked for: no fixer
    assert not loaded and out.endswith("; `--show-fixes` counts those `mirrorguard fix` fixes.")
    loaded, out = loads_libcst(["check", "bare.py"], tmp_path)
    assert not loaded and "MG107" in out and "fixable" not in out
    loaded, out = loads_libcst(["check", "-q", "train.py"], tmp_path)
    assert not loaded and "fixable" not in out


def test_a_refused_fix_is_not_counted(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "refused.py").write_text(REFUSED)
    _, out, _ = run(capsys, "check", "--show-fixes", "refused.py")
    assert out[0].startswith("refused.py:2:9: MG101 ") and "[*]" not in out[0]
    assert out[-1] == "Found 1 finding in 1 file (1 file checked)."
    _, _, err = run(capsys, "fix", "--diff", "refused.py")
    assert err[-1] == "Would fix 0 findings in 0 files (1 file checked); 1 left."


def test_standard_input_is_counted_as_fix_dash_fixes_it(tmp_path):
    def check(text: str) -> str:
        result = subprocess.run([sys.executable, "-m", "mirrorguard", "check", "--show-fixes", "-",
                                 "--stdin-filename", "t.py"],
                                input=text, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return result.stdout.splitlines()[-1]

    assert check(SCRIPT).endswith("; 1 fixable with `mirrorguard fix`.")
    assert check(REFUSED) == "Found 1 finding in 1 file (1 file checked)."


FIXED_PRODUCT = textwrap.dedent("""\
    import tensorflow as tf
    PER_REPLICA = 64
    GLOBAL = PER_REPLICA * 2
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, batch_size=GLOBAL)
    """)


def test_a_finding_its_rule_marks_unfixable_is_never_counted_nor_fixed(tmp_path, capsys, monkeypatch):
    # MG201 on a batch that is already a product with a fixed count: multiplying it by the
    # replicas would scale it twice, so the finding itself says its fix does not apply.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "product.py").write_text(FIXED_PRODUCT)
    _, out, _ = run(capsys, "check", "--show-fixes", "--unsafe-fixes", "product.py")
    assert "MG201" in out[0] and "in place of the fixed `2`" in out[0] and "[*]" not in out[0]
    assert out[-1] == "Found 1 finding in 1 file (1 file checked)."
    _, out, _ = run(capsys, "check", "product.py")
    assert out[-1] == "Found 1 finding in 1 file (1 file checked)."  # nothing for --show-fixes to count
    _, _, err = run(capsys, "fix", "--unsafe-fixes", "--diff", "product.py")
    assert "already a product with a fixed count" in "\n".join(err)
    assert err[-1].endswith("; 1 left.")
