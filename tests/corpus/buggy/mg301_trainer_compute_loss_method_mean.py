"""Keras-3-era trainer class with a `compute_loss` method (the naming of keras.Model.compute_loss and
transformers' hf_compute_loss), run per replica by `self.strategy.run(self.train_step, ...)`."""
import tensorflow as tf


class ClassifierTrainer:
    def __init__(self, strategy, num_classes, label_smoothing=0.1):
        self.strategy = strategy
        self.num_classes = num_classes
        self.label_smoothing = label_smoothing
        with strategy.scope():
            self.model = tf.keras.applications.EfficientNetV2B0(weights=None, classes=num_classes)
            self.optimizer = tf.keras.optimizers.AdamW(1e-3, weight_decay=0.05)
            self.accuracy = tf.keras.metrics.CategoricalAccuracy()

    def compute_loss(self, labels, logits):
        one_hot = tf.one_hot(labels, self.num_classes)
        per_example = tf.keras.losses.categorical_crossentropy(
            one_hot, logits, from_logits=True, label_smoothing=self.label_smoothing)
        return tf.reduce_mean(per_example)  # expect: MG301

    def train_step(self, images, labels):
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = self.compute_loss(labels, logits)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.accuracy.update_state(tf.one_hot(labels, self.num_classes), logits)
        return loss

    @tf.function
    def distributed_step(self, images, labels):
        losses = self.strategy.run(self.train_step, args=(images, labels))
        return self.strategy.reduce("SUM", losses, axis=None)


if __name__ == "__main__":
    strategy = tf.distribute.MirroredStrategy()
    global_batch = 32 * strategy.num_replicas_in_sync
    trainer = ClassifierTrainer(strategy, num_classes=10)
    ds = tf.data.Dataset.from_tensor_slices((tf.random.uniform([512, 224, 224, 3]),
                                             tf.random.uniform([512], maxval=10, dtype=tf.int32)))
    for images, labels in strategy.experimental_distribute_dataset(ds.batch(global_batch)):
        print(trainer.distributed_step(images, labels).numpy())
