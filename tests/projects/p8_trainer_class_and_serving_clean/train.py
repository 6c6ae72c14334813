"""Custom loop trainer; every stateful object is created in Trainer.__init__ under the scope."""
import tensorflow as tf

import data
from configs import HPARAMS, PER_REPLICA_BATCH_SIZE
from models import make_model, make_optimizer


class Trainer:
    def __init__(self, strategy):
        self.strategy = strategy
        self.global_batch = PER_REPLICA_BATCH_SIZE * strategy.num_replicas_in_sync
        with strategy.scope():
            self.model = make_model()
            self.optimizer = make_optimizer()
            self.train_acc = tf.keras.metrics.SparseCategoricalAccuracy()
        self.loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    def _step(self, inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            loss = tf.nn.compute_average_loss(self.loss_obj(y, logits), global_batch_size=self.global_batch)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.train_acc.update_state(y, logits)
        return loss

    @tf.function
    def train_step(self, inputs):
        losses = self.strategy.run(self._step, args=(inputs,))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    def fit(self, steps_per_epoch=100):
        dist_ds = self.strategy.distribute_datasets_from_function(
            data.per_replica_input_fn(self.global_batch))
        iterator = iter(dist_ds)
        for epoch in range(HPARAMS["epochs"]):
            for _ in range(steps_per_epoch):
                loss = self.train_step(next(iterator))
            print(epoch, float(loss), float(self.train_acc.result()))
            self.train_acc.reset_state()
        return self.model


def main():
    strategy = tf.distribute.MirroredStrategy()
    trainer = Trainer(strategy)
    model = trainer.fit()
    eval_ds = data.scaled_dataset(strategy, PER_REPLICA_BATCH_SIZE)
    with strategy.scope():
        model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    model.evaluate(eval_ds)
    model.save("/tmp/trainer/model.keras")


if __name__ == "__main__":
    main()
