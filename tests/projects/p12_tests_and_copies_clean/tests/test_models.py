import numpy as np
import tensorflow as tf

from data import make_ds
from models import classifier


def test_classifier_output_shape():
    model = classifier(num_classes=3)
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.zeros((4, 32, 32, 3)), np.zeros((4, 3)), batch_size=2, verbose=0)
    assert model.output_shape == (None, 3)


def test_make_ds_batches():
    ds = make_ds(np.zeros((10, 2)), np.zeros(10), batch_size=4)
    assert [b[0].shape[0] for b in ds] == [4, 4, 2]


def test_classifier_under_strategy(strategy):
    with strategy.scope():
        model = classifier()
        model.compile(optimizer="sgd", loss="mse")
    ds = make_ds(np.zeros((8, 32, 32, 3)), np.zeros((8, 10)), batch_size=4 * strategy.num_replicas_in_sync)
    model.fit(ds, epochs=1, verbose=0)
