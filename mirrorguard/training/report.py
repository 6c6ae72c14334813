"""What a training run tells its user: a stop on a non-finite loss, the final summary, the curves.

The same for both loops: ``fit`` feeds them through :func:`fit_callbacks`, the
custom loop through :class:`Record` directly. TensorFlow and matplotlib are
imported inside the functions that need them.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field

from mirrorguard.training.devices import SetupError

METRICS = ("loss", "accuracy", "val_loss", "val_accuracy")
PLOT_SIZE = (8.0, 3.2)  # inches; at PLOT_DPI the PNG is 800 x 320 pixels
PLOT_DPI = 100
MISSING = "{option} needs {package}, which is not installed; install the runtime extra: pip install 'mirrorguard[tf]'"


class TrainingDiverged(Exception):
    """The loss became NaN or infinite: the weights are lost, further epochs would only waste time."""


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


@dataclass
class Record:
    """Per-epoch metrics and timings of this run (a resumed run starts at a later epoch)."""

    epochs: list[int] = field(default_factory=list)  # 1-based, as Keras prints them
    history: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in METRICS})
    train_seconds: list[float] = field(default_factory=list)  # per epoch: its steps, validation excluded
    started: float = field(default_factory=time.monotonic)

    def add_epoch(self, epoch: int, logs: dict, learning_rate: float, train_seconds: float) -> None:
        """Keep epoch ``epoch`` (0-based) and stop the run if its loss is not a finite number."""
        loss = float(logs.get("loss", math.nan))
        if not math.isfinite(loss):
            raise TrainingDiverged(
                f"the training loss became {loss} in epoch {epoch + 1}, so training stopped; the "
                f"weights are no longer numbers. Lower --learning-rate (now {learning_rate:g}) and "
                "start again (the backup holds the last finite epoch: delete it to start afresh)"
            )
        self.epochs.append(epoch + 1)
        self.train_seconds.append(train_seconds)
        for name in METRICS:
            self.history[name].append(float(logs.get(name, math.nan)))


def fit_callbacks(tf, record: Record, learning_rate: float) -> list:
    """Callbacks that fill ``record`` during ``fit``; put them before ``BackupAndRestore``.

    Before it, so that a diverged epoch raises before it is backed up. Epoch- and
    validation-level hooks only: a per-batch hook would turn off Keras's
    asynchronous dispatch of steps.
    """
    times = {}

    def on_epoch_begin(epoch, logs=None):
        times.clear()
        times["begin"] = time.monotonic()

    def on_test_begin(logs=None):
        # fit validates at the end of each epoch: its steps are done by now.
        times.setdefault("steps_done", time.monotonic())

    def on_epoch_end(epoch, logs=None):
        steps_done = times.get("steps_done", time.monotonic())  # no validation this epoch
        record.add_epoch(epoch, logs or {}, learning_rate, steps_done - times["begin"])

    # Both flavours' LambdaCallback set any other hook given by keyword (on_test_begin).
    return [
        tf.keras.callbacks.LambdaCallback(
            on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end, on_test_begin=on_test_begin
        )
    ]


def summary(record: Record, *, steps_per_epoch: int, global_batch: int, strategy, workers: int) -> str:
    """The lines printed at the end of a run."""
    wall = time.monotonic() - record.started
    replicas = strategy.num_replicas_in_sync
    trained = len(record.epochs)
    if trained:
        span = f"epoch {record.epochs[0]}" if trained == 1 else f"epochs {record.epochs[0]}-{record.epochs[-1]}"
        epochs_line = f"{trained} ({span}, {plural(steps_per_epoch, 'step')} of {global_batch} examples each)"
    else:
        epochs_line = "0 (the backup had finished every epoch)"
    # The first epoch of a run also traces the step functions: leave it out when there are others.
    timed = record.train_seconds[1:] if trained > 1 else record.train_seconds
    seconds = sum(timed)
    if timed and seconds > 0:
        rate = len(timed) * steps_per_epoch * global_batch / seconds
        if len(timed) == trained:
            which = "the first epoch (tracing included)"
        else:
            which = f"epoch {record.epochs[1]}" if trained == 2 else f"epochs {record.epochs[1]}-{record.epochs[-1]}"
        speed = f"{rate:,.0f} in total, {rate / replicas:,.0f} per replica (training steps of {which})"
    else:
        speed = "n/a"
    devices = ", ".join(strategy.extended.worker_devices)
    where = f"{plural(replicas, 'replica')} with {type(strategy).__name__}"
    if workers > 1:
        where += f" on {workers} workers"
    return "\n".join(
        [
            "Summary:",
            f"  epochs:      {epochs_line}",
            f"  wall time:   {wall:.1f} s",
            f"  examples/s:  {speed}",
            f"  replicas:    {where}",
            f"  devices:     {devices}" + (" (this worker's)" if workers > 1 else ""),
        ]
    )


def check_available(option: str, package: str) -> None:
    """Fail before TensorFlow starts when ``option`` needs a package that is missing here."""
    import importlib.util

    if importlib.util.find_spec(package) is None:
        raise SetupError(MISSING.format(option=option, package=package))


def plot(record: Record, path: str, title: str) -> None:
    """Write the loss and accuracy curves, training and validation, to the PNG ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed, none opened
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(1, 2, figsize=PLOT_SIZE, dpi=PLOT_DPI, layout="constrained")
    for ax, name in zip(axes, ("loss", "accuracy")):
        ax.plot(record.epochs, record.history[name], "o-", color="C0", linewidth=2, label="training")
        ax.plot(record.epochs, record.history[f"val_{name}"], "s--", color="C1", linewidth=2, label="validation")
        ax.set_xlabel("epoch")
        ax.set_ylabel(name)
        ax.set_xticks(record.epochs)
        ax.grid(alpha=0.3)
        ax.legend()
    axes[1].set_ylim(0.0, 1.02)
    figure.suptitle(title)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    figure.savefig(path)
    pyplot.close(figure)


class EpochSummaries:
    """The custom loop's TensorBoard scalars, laid out as Keras's TensorBoard callback does.

    ``DIR/train`` and ``DIR/validation``, tags ``epoch_loss`` and ``epoch_accuracy``,
    step = epoch (0-based), so both loops' runs can be compared in one TensorBoard.
    """

    def __init__(self, tf, log_dir: str):
        self._tf = tf
        self._writers = {
            "": tf.summary.create_file_writer(os.path.join(log_dir, "train")),
            "val_": tf.summary.create_file_writer(os.path.join(log_dir, "validation")),
        }

    def write(self, epoch: int, logs: dict) -> None:
        for prefix, writer in self._writers.items():
            with writer.as_default(step=epoch):
                for name in ("loss", "accuracy"):
                    self._tf.summary.scalar(f"epoch_{name}", logs[prefix + name])
            writer.flush()

    def close(self) -> None:
        for writer in self._writers.values():
            writer.close()
