"""Class-based custom loop trainer (keras-io "custom training loop" metrics + tensorflow/docs custom_training);
the loss tracker is created in __init__ after the `with` block ends."""
import tensorflow as tf


class Trainer:
    def __init__(self, strategy, build_fn, global_batch_size):
        self.strategy = strategy
        self.global_batch_size = global_batch_size
        with strategy.scope():
            self.model = build_fn()
            self.optimizer = tf.keras.optimizers.Adam(2e-4)
            self.accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")  # expect: MG103
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def replica_step(self, x, y):
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            loss = tf.nn.compute_average_loss(self.loss_fn(y, logits), global_batch_size=self.global_batch_size)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.accuracy.update_state(y, logits)

    @tf.function
    def distributed_step(self, batch):
        self.strategy.run(self.replica_step, args=batch)

    def train(self, dataset, epochs):
        dist = self.strategy.experimental_distribute_dataset(dataset)
        for epoch in range(epochs):
            for batch in dist:
                self.distributed_step(batch)
            print(epoch, self.loss_tracker.result().numpy(), self.accuracy.result().numpy())
            self.loss_tracker.reset_state()
            self.accuracy.reset_state()


def build():
    return tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(3)])


strategy = tf.distribute.MirroredStrategy()
gbs = 32 * strategy.num_replicas_in_sync
data = tf.data.Dataset.from_tensor_slices((tf.random.normal([999, 8]), tf.random.uniform([999], 0, 3, tf.int32)))
Trainer(strategy, build, gbs).train(data.batch(gbs), epochs=2)
