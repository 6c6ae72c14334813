import numpy as np
import tensorflow as tf

from preprocessing import fitted_lookup, fitted_normalizer

strategy = tf.distribute.MirroredStrategy()
numeric = np.random.rand(10_000, 6).astype("float32")
cities = np.random.choice(["paris", "lyon", "nice"], size=(10_000, 1))
target = np.random.randint(0, 2, 10_000)

normalizer = fitted_normalizer(numeric)  # expect: MG105
city_lookup = fitted_lookup(cities)

with strategy.scope():
    num_in = tf.keras.Input((6,))
    city_in = tf.keras.Input((1,), dtype=tf.string)
    x = tf.keras.layers.Concatenate()([normalizer(num_in), city_lookup(city_in)])
    x = tf.keras.layers.Dense(32, activation="relu")(x)
    model = tf.keras.Model([num_in, city_in], tf.keras.layers.Dense(1, activation="sigmoid")(x))
    model.compile(optimizer="adam", loss="binary_crossentropy")

ds = tf.data.Dataset.from_tensor_slices(((numeric, cities), target))
model.fit(ds.batch(256 * strategy.num_replicas_in_sync), epochs=2)
