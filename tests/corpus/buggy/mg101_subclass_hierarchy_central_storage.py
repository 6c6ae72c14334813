import tensorflow as tf


class BaseRecommender(tf.keras.Model):
    """Shared embedding tower."""

    def __init__(self, num_users, num_items, dim=32):
        super().__init__()
        self.user_emb = tf.keras.layers.Embedding(num_users, dim)
        self.item_emb = tf.keras.layers.Embedding(num_items, dim)

    def call(self, inputs):
        u = self.user_emb(inputs["user_id"])
        i = self.item_emb(inputs["item_id"])
        return tf.reduce_sum(u * i, axis=-1)


class RankingModel(BaseRecommender):
    def __init__(self, num_users, num_items, dim=32):
        super().__init__(num_users, num_items, dim)
        self.mlp = tf.keras.Sequential([
            tf.keras.layers.Dense(64, activation="relu"),
            tf.keras.layers.Dense(1),
        ])

    def call(self, inputs):
        u = self.user_emb(inputs["user_id"])
        i = self.item_emb(inputs["item_id"])
        return self.mlp(tf.concat([u, i], axis=-1))


strategy = tf.distribute.experimental.CentralStorageStrategy()
GLOBAL_BATCH = 4096 * strategy.num_replicas_in_sync

ratings = tf.data.Dataset.load("movielens_ratings")
train = ratings.shuffle(100_000).batch(GLOBAL_BATCH).cache()

ranker = RankingModel(num_users=6041, num_items=3953)  # expect: MG101
with strategy.scope():
    ranker.compile(optimizer=tf.keras.optimizers.Adagrad(0.1), loss="mse",
                   metrics=[tf.keras.metrics.RootMeanSquaredError()])
ranker.fit(train, epochs=3)
