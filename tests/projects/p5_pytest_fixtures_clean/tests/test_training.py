import numpy as np
import pytest
import tensorflow as tf

from tabular.data import as_dataset, synthetic
from tabular.models import WideAndDeep, build_mlp

STRATEGIES = [
    tf.distribute.OneDeviceStrategy("/cpu:0"),
    tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
]


def test_fixture_model_trains(mlp, strategy):
    x, y = synthetic()
    ds = as_dataset(x, y, 16 * strategy.num_replicas_in_sync)
    history = mlp.fit(ds, epochs=2, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


@pytest.mark.parametrize("dist", STRATEGIES)
def test_weights_are_distributed(dist):
    with dist.scope():
        model = WideAndDeep()
        model.build((None, 8))
        model.compile(optimizer="sgd", loss="mse")
    for weight in model.weights:
        assert dist.extended.variable_created_in_scope(weight.value)


def test_build_mlp_shapes():
    model = build_mlp(8, hidden=(4,))
    assert model.output_shape == (None, 1)
    assert len(model.layers) == 2


def test_predict_matches_between_replicas(strategy):
    x, _ = synthetic(n=32)
    with strategy.scope():
        model = build_mlp(8)
    single = build_mlp(8)
    single.set_weights(model.get_weights())
    np.testing.assert_allclose(model.predict(x, batch_size=8 * strategy.num_replicas_in_sync),
                               single.predict(x, batch_size=8), rtol=1e-5)
