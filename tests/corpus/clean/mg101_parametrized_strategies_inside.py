"""Shape 9.4 (valid): parametrised strategies, everything inside each one's scope.

Style: the keras / tf-models-official test idiom of running one test body under
several strategies (`combinations`-like list passed to `pytest.mark.parametrize`),
and a strategy passed straight into a helper call. Models, optimizers and
compile live inside `strategy.scope()`, batches scale with the replica count.
"""
import numpy as np
import pytest
import tensorflow as tf


def train_tiny(strategy, epochs=1):
    x = np.random.rand(128, 4).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8 * strategy.num_replicas_in_sync)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    return model.fit(ds, epochs=epochs, verbose=0)


@pytest.mark.parametrize(
    "strategy",
    [tf.distribute.get_strategy(), tf.distribute.MirroredStrategy(), tf.distribute.OneDeviceStrategy("/cpu:0")],
)
def test_loss_is_finite(strategy):
    history = train_tiny(strategy)
    assert np.isfinite(history.history["loss"][-1])


def test_strategy_passed_inline():
    history = train_tiny(tf.distribute.MirroredStrategy(), epochs=2)
    assert len(history.history["loss"]) == 2
