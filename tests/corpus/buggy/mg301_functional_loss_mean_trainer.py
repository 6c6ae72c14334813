"""Class-based custom trainer (course repos: `class DistributedTrainer`), loss written with the functional
Keras loss instead of a loss object, and regularisation scaled correctly."""
import tensorflow as tf


class DistributedTrainer:
    def __init__(self, strategy, global_batch_size):
        self.strategy = strategy
        self.global_batch_size = global_batch_size
        with strategy.scope():
            self.model = tf.keras.Sequential([
                tf.keras.layers.Dense(256, activation="relu", kernel_regularizer=tf.keras.regularizers.l2(1e-4)),
                tf.keras.layers.Dense(10),
            ])
            self.optimizer = tf.keras.optimizers.SGD(0.05, momentum=0.9)
            self.train_acc = tf.keras.metrics.SparseCategoricalAccuracy()

    def _replica_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            loss = tf.reduce_mean(  # expect: MG301
                tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
            loss += tf.nn.scale_regularization_loss(tf.add_n(self.model.losses))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.train_acc.update_state(y, logits)
        return loss

    @tf.function
    def train_step(self, x, y):
        per_replica = self.strategy.run(self._replica_step, args=(x, y))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    def fit(self, dataset, epochs):
        dist = self.strategy.experimental_distribute_dataset(dataset)
        for epoch in range(epochs):
            self.train_acc.reset_state()
            for x, y in dist:
                loss = self.train_step(x, y)
            print(f"epoch {epoch}: loss={loss:.4f} acc={self.train_acc.result():.3f}")


if __name__ == "__main__":
    strategy = tf.distribute.MirroredStrategy()
    global_batch = 64 * strategy.num_replicas_in_sync
    (x, y), _ = tf.keras.datasets.mnist.load_data()
    ds = tf.data.Dataset.from_tensor_slices((x.reshape(-1, 784) / 255.0, y)).shuffle(60000).batch(global_batch)
    DistributedTrainer(strategy, global_batch).fit(ds, epochs=3)
