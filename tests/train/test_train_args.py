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
