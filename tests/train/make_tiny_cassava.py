"""Write a tiny Cassava to disk in TensorFlow Datasets' format, the way TFDS tests its builders.

    python make_tiny_cassava.py OUT_DIR

Random JPEGs from tensorflow-datasets' own test helper (``fake_data_utils``), laid
out as in the real archive (``cassavaleafdata/{train,validation,test}/LABEL/*.jpg``),
go through TFDS's real ``Cassava`` builder; only the download is pointed at the
local folder, as ``tfds.testing.DatasetBuilderTestCase`` does. What ends up in
``OUT_DIR/tfds`` is what ``tfds.load('cassava', data_dir=...)`` reads on a real
machine: ``cassava/0.1.0/`` with ``dataset_info.json`` and TFRecord shards.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
from unittest import mock

import numpy as np
import tensorflow as tf
import tensorflow_datasets as tfds
from tensorflow_datasets.image_classification import cassava
from tensorflow_datasets.testing import fake_data_utils

# Examples per label and split: 5 labels, so 20 train and 10 validation images.
PER_LABEL = {"train": 4, "validation": 2, "test": 1}


def write_images(raw: str) -> None:
    random.seed(0)
    np.random.seed(0)
    for split, count in PER_LABEL.items():
        for label in cassava._LABELS:
            folder = os.path.join(raw, "cassavaleafdata", split, label)
            os.makedirs(folder)
            for index in range(count):
                # Two sizes, as in the real data: the pipeline must resize before batching.
                # The helper runs a TF1 session, hence the graph.
                with tf.Graph().as_default():
                    path = fake_data_utils.get_random_jpeg(height=24 + 8 * (index % 2), width=32)
                shutil.move(path, os.path.join(folder, f"{split}-{label}-{index}.jpg"))


def main(out_dir: str) -> None:
    raw = os.path.join(out_dir, "raw")
    write_images(raw)
    builder = tfds.builder("cassava", data_dir=os.path.join(out_dir, "tfds"))
    with mock.patch.object(tfds.download.DownloadManager, "download_and_extract", lambda self, url: raw):
        builder.download_and_prepare(
            download_config=tfds.download.DownloadConfig(compute_stats=tfds.download.ComputeStatsMode.SKIP)
        )
    print({name: split.num_examples for name, split in builder.info.splits.items()})


if __name__ == "__main__":
    main(sys.argv[1])
