"""Score a saved model on the test split (single device, no strategy)."""
import sys

import tensorflow as tf

from configs import EVAL_BATCH_SIZE
from data import build_eval_dataset


def main(path):
    model = tf.keras.models.load_model(path)
    _, (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
    ds = build_eval_dataset(x_test, y_test, EVAL_BATCH_SIZE)
    loss, acc = model.evaluate(ds)
    print(f"loss={loss:.4f} accuracy={acc:.4f}")
    preds = model.predict(ds.take(1))
    print(preds.argmax(axis=-1)[:10])


if __name__ == "__main__":
    main(sys.argv[1])
