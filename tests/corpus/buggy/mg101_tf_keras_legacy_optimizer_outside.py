import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf
import tf_keras as keras

lr_schedule = keras.optimizers.schedules.PiecewiseConstantDecay([1000, 2000], [1e-3, 1e-4, 1e-5])
opt = keras.optimizers.legacy.Adam(learning_rate=lr_schedule)  # expect: MG103

strategy = tf.distribute.MirroredStrategy()
per_replica = 256
train = tf.data.Dataset.load("criteo_small").batch(per_replica * strategy.num_replicas_in_sync)

dense_in = keras.Input(shape=(13,), name="dense")
cat_in = keras.Input(shape=(26,), dtype="int64", name="cat")
emb = keras.layers.Embedding(100_000, 16)(cat_in)
x = keras.layers.Concatenate()([keras.layers.Flatten()(emb), dense_in])
x = keras.layers.Dense(256, activation="relu")(x)
out = keras.layers.Dense(1, activation="sigmoid")(x)
ctr_model = keras.Model([dense_in, cat_in], out)  # expect: MG101

with strategy.scope():
    ctr_model.compile(optimizer=opt, loss="binary_crossentropy", metrics=[keras.metrics.AUC()])

ctr_model.fit(train, epochs=2)
