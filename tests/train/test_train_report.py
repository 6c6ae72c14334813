"""What the reference script reports: curves, TensorBoard logs, and a stop when the loss is lost.

No skips: matplotlib, Pillow (matplotlib's) and tensorboard belong to the `tf` extra; without them
these tests fail, as the script's --plot and --tensorboard would for a user.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from PIL import Image

from tests.train.test_train_runs import FINAL, environment, epochs_started, run

pytestmark = [pytest.mark.tf, pytest.mark.slow]

BOUND = 900  # seconds per run: a training takes a minute on an idle 2-core machine, ten on a loaded one

TRAINING_BLUE = (31, 119, 180)  # matplotlib's C0
VALIDATION_ORANGE = (255, 127, 14)  # C1

READ_EVENTS = """
    import json, os, sys
    import tensorflow as tf

    found = {}
    for run in ("train", "validation"):
        folder = os.path.join(sys.argv[1], run)
        for name in sorted(os.listdir(folder)):
            for event in tf.compat.v1.train.summary_iterator(os.path.join(folder, name)):
                for value in event.summary.value:
                    if value.tag.startswith("epoch_"):  # Keras also logs its model's config as text
                        number = float(tf.make_ndarray(value.tensor))
                        found.setdefault(run, {}).setdefault(value.tag, []).append([event.step, number])
    print(json.dumps(found))
"""


def colour_pixels(pixels: np.ndarray, colour: tuple[int, int, int]) -> int:
    return int((np.abs(pixels.astype(int) - colour).sum(axis=-1) < 40).sum())


def train(args: list[str], cwd) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "mirrorguard.train", *args], cwd, timeout=BOUND)


def read_scalars(log_dir) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(READ_EVENTS), str(log_dir)],
        capture_output=True, text=True, timeout=BOUND, env=environment(TF_CPP_MIN_LOG_LEVEL="3"),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_plot_and_tensorboard_show_every_epoch_of_training_and_validation(digits_run):
    # The five-epoch digits run of both loops, which draws the curves and writes the logs
    # (tests/train/conftest.py); test_train_runs.py reads its accuracy and summary.
    result, tmp_path = digits_run, digits_run.folder
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stderr == ""
    assert "Saved the curves to out/curves.png\n" in result.stdout
    assert FINAL.search(result.stdout)

    image = Image.open(tmp_path / "out" / "curves.png")
    assert image.format == "PNG"
    assert image.size == (800, 320)
    pixels = np.asarray(image.convert("RGB"))
    assert (pixels.min(axis=-1) < 200).mean() > 0.03  # not blank: axes, text and curves
    # Both curves in both panels (loss on the left, accuracy on the right).
    for panel in (pixels[:, :400], pixels[:, 400:]):
        assert colour_pixels(panel, TRAINING_BLUE) > 300
        assert colour_pixels(panel, VALIDATION_ORANGE) > 300

    scalars = read_scalars(tmp_path / "logs")
    for log in ("train", "validation"):
        for tag in ("epoch_loss", "epoch_accuracy"):
            assert [step for step, _ in scalars[log][tag]] == [0, 1, 2, 3, 4], (log, tag, scalars)
    # The logged losses are the ones the script printed for the last epoch.
    last_line = [line for line in result.stdout.splitlines() if "val_loss: " in line][-1]
    printed_loss = float(re.search(r"(?<![_a-z])loss: (\d+\.\d+)", last_line).group(1))
    printed_val_loss = float(re.search(r"val_loss: (\d+\.\d+)", last_line).group(1))
    assert scalars["train"]["epoch_loss"][-1][1] == pytest.approx(printed_loss, abs=6e-4)
    assert scalars["validation"]["epoch_loss"][-1][1] == pytest.approx(printed_val_loss, abs=6e-4)


@pytest.mark.parametrize("loop", ["fit", "custom"])
def test_a_loss_that_is_no_longer_a_number_stops_the_run_with_an_error(tmp_path, loop):
    # A finite rate so large that the weights overflow in the first epoch.
    args = ["--dataset", "synthetic", "--strategy", "onedevice", "--epochs", "3", "--loop", loop,
            "--learning-rate", "1e30", "--backup-dir", "backup"]
    result = train(args, tmp_path)
    assert result.returncode == 1, result.stderr[-3000:]
    assert re.match(
        r"mirrorguard train: error: the training loss became (nan|inf) in epoch 1, so training stopped; "
        r"the weights are no longer numbers\. Lower --learning-rate \(now 1e\+30\)",
        result.stderr,
    ), result.stderr[-3000:]
    assert result.stderr.count("\n") == 1  # one line, no traceback
    assert epochs_started(result.stdout) == [1]
    assert not FINAL.search(result.stdout)
