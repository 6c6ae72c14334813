"""Shape 9.7 (invalid): an optimizer created in a default argument travels into compile.

Style: small course repositories with `def build(opt=tf.keras.optimizers.Adam(...))`
helpers. The default is evaluated once, when `def` runs at import, outside any
scope; `build()` is then called inside the scope and compiles with it: MG103 at
the line of the default.
"""
import tensorflow as tf


def build(input_dim, opt=tf.keras.optimizers.Adam(learning_rate=3e-4)):  # expect: MG103
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(input_dim,)),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    model.compile(optimizer=opt, loss="huber", metrics=["mae"])
    return model


strategy = tf.distribute.MirroredStrategy()
per_replica = 256
global_batch = per_replica * strategy.num_replicas_in_sync

x = tf.random.normal((50_000, 32))
y = tf.reduce_sum(x ** 2, axis=1, keepdims=True)
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(50_000).batch(global_batch)

with strategy.scope():
    model = build(32)

model.fit(ds, epochs=20)
