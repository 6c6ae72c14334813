"""Shape 9.12 (valid): the self-compiling subclass is created inside the scope.

Style: the same TF-Recommenders-like self-compiling model, instantiated in
`with strategy.scope():` as the TFRS distributed guides do.
"""
import tensorflow as tf
from tensorflow import keras


class RankingModel(keras.Model):
    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user_emb = keras.layers.Embedding(n_users, dim)
        self.item_emb = keras.layers.Embedding(n_items, dim)
        self.rating = keras.Sequential([keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])
        self.compile(optimizer=keras.optimizers.Adagrad(0.1), loss="mse",
                     metrics=[keras.metrics.RootMeanSquaredError()])

    def call(self, inputs):
        user, item = inputs
        return self.rating(tf.concat([self.user_emb(user), self.item_emb(item)], axis=1))


strategy = tf.distribute.MirroredStrategy()
ratings = tf.data.Dataset.load("movielens_ratings")
train = ratings.shuffle(100_000).batch(8192 * strategy.num_replicas_in_sync).cache()

with strategy.scope():
    model = RankingModel(n_users=944, n_items=1683)

model.fit(train, epochs=3)
