"""Snapshot-ensemble kernel: several models built by a comprehension and compiled in a loop, all in the scope."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 256 * strategy.num_replicas_in_sync
SEEDS = [0, 1, 2]


def make_mlp(seed):
    tf.keras.utils.set_random_seed(seed)
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(100,)),
        tf.keras.layers.Dense(256, activation="swish"),
        tf.keras.layers.Dropout(0.3),
        tf.keras.layers.Dense(1),
    ])


x = np.random.rand(50_000, 100).astype("float32")
y = (x[:, :10].sum(axis=1) > 5).astype("float32")

with strategy.scope():
    ensemble = [make_mlp(seed) for seed in SEEDS]
    for member in ensemble:
        member.compile(
            optimizer=tf.keras.optimizers.Adam(1e-3),
            loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
            metrics=[tf.keras.metrics.AUC(from_logits=True)],
        )

for member in ensemble:
    member.fit(x, y, batch_size=BATCH, epochs=3, verbose=2)
predictions = np.mean([member.predict(x[:1000], batch_size=BATCH) for member in ensemble], axis=0)
