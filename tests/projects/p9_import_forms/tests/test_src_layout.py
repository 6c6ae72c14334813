import tensorflow as tf
from pkg.models import build_mlp

strategy = tf.distribute.MirroredStrategy()


def test_train():
    model = build_mlp()  # expect: MG101
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    model.fit(tf.data.Dataset.range(8).map(lambda i: (i, i)).batch(8 * strategy.num_replicas_in_sync))
