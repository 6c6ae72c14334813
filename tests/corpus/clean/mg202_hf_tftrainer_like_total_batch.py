"""A TFTrainer-shaped class (transformers' old trainer_tf.py: `total_train_batch_size`,
`args.strategy.scope()`, `distributed_training_steps`), written by hand and correct."""
import tensorflow as tf
from transformers import TFAutoModelForSequenceClassification, create_optimizer


class TFTrainerLike:
    def __init__(self, model_name, per_device_train_batch_size=8, num_train_steps=1000):
        self.strategy = tf.distribute.MirroredStrategy()
        self.total_train_batch_size = per_device_train_batch_size * self.strategy.num_replicas_in_sync
        with self.strategy.scope():
            self.model = TFAutoModelForSequenceClassification.from_pretrained(model_name, num_labels=3)
            self.optimizer, self.lr_schedule = create_optimizer(
                init_lr=3e-5, num_train_steps=num_train_steps, num_warmup_steps=100, weight_decay_rate=0.01)
            self.train_loss = tf.keras.metrics.Sum()
        self.loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    def get_train_tfdataset(self, features, labels):
        ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(10000)
        ds = ds.batch(self.total_train_batch_size, drop_remainder=True)
        return self.strategy.experimental_distribute_dataset(ds)

    def run_model(self, features, labels):
        with tf.GradientTape() as tape:
            logits = self.model(features, training=True).logits
            per_example_loss = self.loss_fn(labels, logits)
            loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=self.total_train_batch_size)
        gradients = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))
        self.train_loss.update_state(loss)

    @tf.function
    def distributed_training_steps(self, batch):
        self.strategy.run(self.run_model, args=batch)

    def train(self, features, labels, epochs=2):
        dist = self.get_train_tfdataset(features, labels)
        for epoch in range(epochs):
            for batch in dist:
                self.distributed_training_steps(batch)
            print(epoch, self.train_loss.result().numpy())
            self.train_loss.reset_state()


if __name__ == "__main__":
    feats = {"input_ids": tf.zeros([256, 32], tf.int32), "attention_mask": tf.ones([256, 32], tf.int32)}
    TFTrainerLike("bert-base-cased").train(feats, tf.zeros([256], tf.int32))
