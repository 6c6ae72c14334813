"""Class-based custom trainer (course repo): replica step is a bound method, counter made in __init__ outside."""
import tensorflow as tf


class DistributedTrainer:
    def __init__(self, model_fn, per_replica_batch=32):
        self.strategy = tf.distribute.MirroredStrategy()
        self.global_batch = per_replica_batch * self.strategy.num_replicas_in_sync
        self.steps_done = tf.Variable(0, dtype=tf.int64, trainable=False)  # expect: MG105
        with self.strategy.scope():
            self.model = model_fn()
            self.optimizer = tf.keras.optimizers.Adam(3e-4)
            self.loss_fn = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)

    def _replica_step(self, features, targets):
        with tf.GradientTape() as tape:
            preds = self.model(features, training=True)
            loss = tf.math.reduce_mean(self.loss_fn(targets, preds))  # expect: MG301
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.steps_done.assign_add(1)
        return loss

    @tf.function
    def _distributed_step(self, features, targets):
        per_replica = self.strategy.run(self._replica_step, args=(features, targets))
        return self.strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)

    def fit(self, x, y, epochs=1):
        ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x)).batch(self.global_batch)
        dist = self.strategy.experimental_distribute_dataset(ds)
        for epoch in range(epochs):
            for features, targets in dist:
                loss = self._distributed_step(features, targets)
            print(f"epoch {epoch}: loss={float(loss):.4f} steps={int(self.steps_done.numpy())}")


def regression_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(1)])


if __name__ == "__main__":
    x = tf.random.normal((8192, 16))
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    DistributedTrainer(regression_model).fit(x, y, epochs=3)
