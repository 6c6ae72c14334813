"""Shape 9.4 (invalid): strategies that are never bound to a plain name are still in play.

Style: a pytest module that parametrises over strategies
(`@pytest.mark.parametrize("strategy", [tf.distribute.MirroredStrategy(), ...])`),
as tf-models-official and keras test suites do, plus a config object holding the
strategy as an attribute. The model is built before the `with` (MG101), and the
config-driven pipeline batches with a literal (MG201).
"""
import types

import numpy as np
import pytest
import tensorflow as tf

STRATEGIES = [
    tf.distribute.MirroredStrategy(),
    tf.distribute.OneDeviceStrategy("/cpu:0"),
]

cfg = types.SimpleNamespace(epochs=1, strategy=tf.distribute.MirroredStrategy())


def _data():
    x = np.random.rand(256, 8).astype("float32")
    y = np.random.randint(0, 2, size=(256, 1))
    return x, y


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_binary_classifier_trains(strategy):
    x, y = _data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),  # expect: MG101
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    with strategy.scope():
        model.compile(optimizer="sgd", loss="binary_crossentropy")
    history = model.fit(x, y, batch_size=16 * strategy.num_replicas_in_sync, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"][0])


def test_config_pipeline():
    x, y = _data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)  # expect: MG201
    with cfg.strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
    model.fit(ds, epochs=cfg.epochs, verbose=0)
