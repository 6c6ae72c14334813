import tensorflow as tf

from models import build_classifier, build_regressor
from scopes import in_scope, scope_for

strategy = tf.distribute.MirroredStrategy()
global_batch = 32 * strategy.num_replicas_in_sync
features = tf.random.normal((512, 8))
reg_ds = tf.data.Dataset.from_tensor_slices((features, tf.reduce_sum(features, 1))).batch(global_batch)

regressor = build_regressor(strategy)
classifier = build_classifier(strategy)
regressor.fit(reg_ds, epochs=1)

with in_scope(strategy):
    wide = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(256), tf.keras.layers.Dense(1)])
    wide.compile(optimizer="adam", loss="mse")
wide.fit(reg_ds, epochs=1)

with scope_for(strategy):
    deep = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(32), tf.keras.layers.Dense(32),
                                tf.keras.layers.Dense(1)])
    deep.compile(optimizer="adam", loss="mse")
deep.fit(reg_ds, epochs=1)
