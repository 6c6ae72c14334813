import pytest
import tensorflow as tf


def pytest_configure(config):
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)


@pytest.fixture(scope="session")
def strategy():
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


@pytest.fixture
def mlp(strategy):
    from tabular.models import build_mlp

    with strategy.scope():
        model = build_mlp(8)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy")
    return model
