"""Shape 9.6 (valid): scopes entered through expressions.

Style: multi/single-device scripts: `with strategy.scope() if use_dist else
nullcontext():`, a helper that returns the scope (or a nullcontext), and
`contextlib.ExitStack().enter_context(strategy.scope())` as in training
frameworks that stack several contexts. Every model and compile runs inside.
"""
import contextlib
from contextlib import nullcontext

import tensorflow as tf

use_dist = len(tf.config.list_physical_devices("GPU")) > 1
strategy = tf.distribute.MirroredStrategy()
BATCH = 64 * strategy.num_replicas_in_sync


def maybe_scope(strat):
    if strat is None:
        return nullcontext()
    return strat.scope()


def small_net():
    return tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])


with strategy.scope() if use_dist else contextlib.nullcontext():
    regressor = small_net()
    regressor.compile(optimizer="adam", loss="mse")

with maybe_scope(strategy):
    critic = small_net()
    critic.compile(optimizer=tf.keras.optimizers.RMSprop(1e-4), loss="mse")

with contextlib.ExitStack() as stack:
    stack.enter_context(strategy.scope())
    encoder = small_net()
    encoder.compile(optimizer="adam", loss="mae")

x = tf.random.normal((1024, 16))
y = tf.reduce_sum(x, axis=1, keepdims=True)
for net in (regressor, critic, encoder):
    net.fit(x, y, batch_size=BATCH, epochs=2, verbose=0)
