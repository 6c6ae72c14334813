"""Lightning-style trainer (`configure_optimizers()` hook ported from PyTorch habits): the model is made in
the strategy's scope in __init__, the optimizer in a separate method the script calls afterwards."""
import tensorflow as tf


class LitRegressor:
    def __init__(self, strategy, hidden=64):
        self.strategy = strategy
        with strategy.scope():
            self.model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(hidden, activation="relu"),
                                              tf.keras.layers.Dense(1)])
        self.optimizer = None

    def configure_optimizers(self, lr=1e-3):
        self.optimizer = tf.keras.optimizers.Adam(lr)

    def training_step(self, x, y, global_batch_size):
        with tf.GradientTape() as tape:
            per_example = tf.square(y - self.model(x, training=True))[:, 0]
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch_size)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    @tf.function
    def distributed_step(self, x, y, global_batch_size):
        losses = self.strategy.run(self.training_step, args=(x, y, global_batch_size))
        return self.strategy.reduce("SUM", losses, axis=None)


strategy = tf.distribute.MirroredStrategy()
gbs = 128 * strategy.num_replicas_in_sync
module = LitRegressor(strategy)
module.configure_optimizers(lr=3e-4)  # expect: MG103
x = tf.random.normal([2048, 8])
y = tf.reduce_sum(x, axis=1, keepdims=True)
for xb, yb in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(gbs)):
    print(module.distributed_step(xb, yb, gbs).numpy())
