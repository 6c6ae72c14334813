"""The reference script's command line: fast answers, no TensorFlow, exit 2 on mistakes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mirrorguard import train


def test_help_answers_without_importing_tensorflow():
    # --help and argument errors must not pay TensorFlow's multi-second import.
    code = (
        "import sys, mirrorguard.train as t\n"
        "try:\n    t.main(['--help'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
        "assert 'tensorflow' not in sys.modules, 'tensorflow was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "--per-replica-batch" in result.stdout
    assert "--replicas" in result.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["--epochs", "0"],
        ["--epochs", "two"],
        ["--replicas", "0"],
        ["--per-replica-batch", "-4"],
        ["--strategy", "parameterserver"],
        ["--dataset", "mnist"],
        ["--model", "vgg16"],
        ["--gpus", "0,x"],
        ["--gpus", "1,1"],
        ["--validation-split", "1.5"],
        ["--output", "model.pb"],
        ["--strategy", "onedevice", "--replicas", "2"],
        ["--model", "resnet50", "--image-size", "16"],
        ["--no-such-option"],
        ["--loop", "keras"],
        ["--plot", "curves.svg"],
        # No abbreviations: a typo must not run a training with the default.
        ["--strateg", "onedevice"],
        ["--epoch", "1"],
    ],
)
def test_bad_arguments_are_argparse_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        train.main(argv)
    assert exit_info.value.code == 2
    assert "mirrorguard train: error:" in capsys.readouterr().err


def test_cassava_without_data_says_how_to_get_it(tmp_path, capsys):
    # tmp_path has no 'cassava' folder, so this fails whether or not tfds is installed.
    assert train.main(["--dataset", "cassava", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mirrorguard train: error:")
    assert "tfds.load('cassava'" in err and "--data-dir" in err
    assert "Traceback" not in err


def test_cassava_without_data_dir_exits_2(capsys):
    assert train.main(["--dataset", "cassava"]) == 2
    assert "--data-dir" in capsys.readouterr().err


def test_multiworker_without_tf_config_exits_2(monkeypatch, capsys):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert train.main(["--strategy", "multiworker"]) == 2
    assert "TF_CONFIG" in capsys.readouterr().err


def test_multiworker_with_broken_tf_config_exits_2(monkeypatch, capsys):
    monkeypatch.setenv("TF_CONFIG", "{not json")
    assert train.main(["--strategy", "multiworker"]) == 2
    assert "TF_CONFIG is not valid" in capsys.readouterr().err


# Runs `mirrorguard train` (through the real CLI entry point) with some modules made
# unimportable, as on a machine where only the static package is installed.
BLOCKED_IMPORT = """
import sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

BLOCKED = set(sys.argv[1].split(","))
sys.meta_path.insert(0, Block())
from mirrorguard.cli import main
sys.exit(main(["train", *sys.argv[2:]]))
"""


@pytest.mark.parametrize(
    "blocked, what",
    [
        ("tensorflow", "TensorFlow"),
        pytest.param("sklearn", "scikit-learn", marks=pytest.mark.tf),  # imports TensorFlow first
    ],
)
def test_missing_runtime_says_which_extra_to_install(blocked, what):
    result = subprocess.run(
        [sys.executable, "-c", BLOCKED_IMPORT, blocked, "--dataset", "synthetic"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"mirrorguard train: error: `mirrorguard train` needs {what}, which is not installed; "
        "install the runtime extra: pip install 'mirrorguard[tf]'\n"
    )
    assert result.stdout == ""


STARTUP_LOGS = """
import os, sys
from mirrorguard.runtime.tensorflow_import import _startup_logs_dropped

with _startup_logs_dropped():
    os.write(2, b"WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\\n")
    os.write(2, b"I0000 00:00:1796134466.080457    6760 cudart_stub.cc:31] Could not find cuda drivers\\n")
    os.write(2, b"W0000 00:00:1796134474.843173    6760 dataset.cc:997] Input of GeneratorDatasetOp\\n")
    os.write(2, b"E0000 00:00:1796134473.749671    6760 cuda_platform.cc:52] failed call to cuInit\\n")
    print("a Python warning", file=sys.stderr)
    os.write(2, b"F0000 00:00:1796134473.749671    6760 x.cc:1] Check failed\\n")
print("after", file=sys.stderr)
"""


def test_startup_logs_drop_only_info_and_warning_lines():
    # What TensorFlow's C++ libraries print while loading is dropped; errors,
    # fatal messages and everything Python writes still reach the user.
    result = subprocess.run([sys.executable, "-c", STARTUP_LOGS], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "E0000 00:00:1796134473.749671    6760 cuda_platform.cc:52] failed call to cuInit",
        "a Python warning",
        "F0000 00:00:1796134473.749671    6760 x.cc:1] Check failed",
        "after",
    ]


@pytest.mark.parametrize("backup_dir", [".", "results"])
def test_a_backup_dir_with_the_users_files_is_refused(tmp_path, monkeypatch, capsys, backup_dir):
    # The backup folder is deleted when training ends: it must never be one holding other files.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "notes.txt").write_text("mine")
    (tmp_path / "train.py").write_text("mine")
    assert train.main(["--dataset", "synthetic", "--backup-dir", backup_dir]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mirrorguard train: error: --backup-dir {backup_dir} holds files that are not")
    assert "Traceback" not in err
    assert (tmp_path / "results" / "notes.txt").read_text() == "mine"
    assert (tmp_path / "train.py").read_text() == "mine"


def test_a_file_as_backup_dir_is_refused(tmp_path, capsys):
    target = tmp_path / "model.keras"
    target.write_text("mine")
    assert train.main(["--dataset", "synthetic", "--backup-dir", str(target)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert target.read_text() == "mine"


@pytest.mark.parametrize("rate", ["nan", "NaN", "inf", "-inf", "0", "-0.001", "0.0"])
def test_a_learning_rate_that_cannot_train_is_a_usage_error(rate, capsys):
    # float() accepts all of these; a NaN rate used to train to `loss: nan` and exit 0.
    with pytest.raises(SystemExit) as exit_info:
        train.main([f"--learning-rate={rate}"])  # = : argparse reads "-inf" alone as an option
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --learning-rate: must be a finite number above 0, got '{rate}'" in err


def test_a_learning_rate_that_is_not_a_number_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        train.main(["--learning-rate", "fast"])
    assert exit_info.value.code == 2
    assert "argument --learning-rate: expected a number, got 'fast'" in capsys.readouterr().err


def test_small_and_scientific_learning_rates_are_accepted():
    assert train.parse_args(["--learning-rate", "1e-5"]).learning_rate == 1e-5
    assert train.parse_args(["--learning-rate", "0.3"]).learning_rate == 0.3


def test_replica_counts_are_written_in_words_that_agree():
    from mirrorguard.training.report import plural

    assert [plural(n, "replica") for n in (1, 2, 8)] == ["1 replica", "2 replicas", "8 replicas"]
