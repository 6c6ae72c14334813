import pytest
import tensorflow as tf


@pytest.fixture
def strategy():
    return tf.distribute.MirroredStrategy(["/cpu:0"])
