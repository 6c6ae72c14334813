"""Data sets for the reference script, as unbatched ``(image, label)`` tf.data pipelines.

Batching, shuffling and preprocessing stay in ``train.py``: they are the part of
the pattern that depends on the strategy.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from typing import Any

from mirrorguard.training.devices import SetupError

CASSAVA_HOWTO = (
    "--dataset cassava reads TensorFlow Datasets' 'cassava' from disk and never downloads. "
    "On a machine with internet: pip install tensorflow-datasets, then run "
    "python -c \"import tensorflow_datasets as tfds; tfds.load('cassava', data_dir='DIR')\" "
    "(about 1.3 GB), copy DIR here and pass --data-dir DIR"
)


@dataclass
class Data:
    """Train and validation pipelines plus what the model and preprocessing need."""

    train: Any  # tf.data.Dataset of (image, label), unbatched
    validation: Any
    train_size: int
    num_classes: int
    max_value: float  # pixel value that maps to 1.0
    channels: int


def check_available(name: str, data_dir: str | None) -> None:
    """Fail fast, before TensorFlow starts, when a data set cannot be read here."""
    if name != "cassava":
        return
    if importlib.util.find_spec("tensorflow_datasets") is None:
        raise SetupError("tensorflow-datasets is not installed. " + CASSAVA_HOWTO)
    if not data_dir or not os.path.isdir(os.path.join(data_dir, "cassava")):
        where = f"no 'cassava' folder under --data-dir {data_dir}" if data_dir else "no --data-dir given"
        raise SetupError(f"{where}. " + CASSAVA_HOWTO)


def load(tf, name: str, validation_split: float, seed: int, data_dir: str | None) -> Data:
    """Load data set ``name`` (digits, synthetic or cassava)."""
    if name == "cassava":
        return _cassava(data_dir)
    if name == "digits":
        from sklearn.datasets import load_digits

        bunch = load_digits()
        images, labels, max_value = bunch.images[..., None], bunch.target, 16.0
    else:
        images, labels, max_value = _synthetic(seed)

    from sklearn.model_selection import train_test_split

    # Stratified, seeded split: every class is in validation and reruns (resume!)
    # see the same examples.
    x_train, x_val, y_train, y_val = train_test_split(
        images.astype("float32"),
        labels.astype("int32"),
        test_size=validation_split,
        random_state=seed,
        stratify=labels,
    )
    return Data(
        train=tf.data.Dataset.from_tensor_slices((x_train, y_train)),
        validation=tf.data.Dataset.from_tensor_slices((x_val, y_val)),
        train_size=len(x_train),
        num_classes=int(labels.max()) + 1,
        max_value=max_value,
        channels=images.shape[-1],
    )


def _synthetic(seed: int):
    """512 noisy 8x8 images whose class is the position of a bright block: learnable, instant."""
    import numpy as np

    rng = np.random.default_rng(seed)
    labels = np.arange(512) % 10
    images = rng.uniform(0.0, 0.3, size=(512, 8, 8, 1))
    for image, label in zip(images, labels):
        row, col = divmod(int(label), 5)
        image[row * 4 : row * 4 + 4, col : col + 4, 0] += 0.7
    return images, labels, 1.0


def _cassava(data_dir: str | None) -> Data:
    import tensorflow_datasets as tfds

    try:
        (train, validation), info = tfds.load(
            "cassava",
            split=["train", "validation"],
            data_dir=data_dir,
            download=False,
            as_supervised=True,
            with_info=True,
        )
    except Exception as error:  # tfds raises several types for "not prepared"
        raise SetupError(f"could not read cassava from {data_dir}: {error}. " + CASSAVA_HOWTO) from None
    return Data(
        train=train,
        validation=validation,
        train_size=info.splits["train"].num_examples,
        num_classes=info.features["label"].num_classes,
        max_value=255.0,
        channels=3,
    )
