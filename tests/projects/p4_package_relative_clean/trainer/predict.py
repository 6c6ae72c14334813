"""Batch prediction job: one device, no strategy."""
import sys

import tensorflow as tf

from .input_pipeline import _parse


def predict(model_dir, pattern):
    model = tf.keras.models.load_model(model_dir)
    ds = tf.data.TFRecordDataset(tf.io.gfile.glob(pattern)).map(_parse).batch(512)
    for images, _ in ds:
        print(model(images, training=False).numpy().argmax(-1))


if __name__ == "__main__":
    predict(sys.argv[1], sys.argv[2])
