"""tensorflow/docs custom_training with the loss computed by a helper that takes a plain mean."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BUFFER_SIZE = 60000
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
EPOCHS = 10

(train_images, train_labels), _ = tf.keras.datasets.fashion_mnist.load_data()
train_images = (train_images[..., None] / np.float32(255))
train_dataset = tf.data.Dataset.from_tensor_slices((train_images, train_labels)).shuffle(BUFFER_SIZE)
train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset.batch(GLOBAL_BATCH_SIZE))

with strategy.scope():
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE
    )

    def compute_loss(labels, predictions):
        per_example_loss = loss_object(labels, predictions)
        return tf.reduce_mean(per_example_loss)  # expect: MG301

    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(10),
    ])
    optimizer = tf.keras.optimizers.Adam()
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = compute_loss(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(labels, predictions)
    return loss


@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


for epoch in range(EPOCHS):
    total_loss, num_batches = 0.0, 0
    for x in train_dist_dataset:
        total_loss += distributed_train_step(x)
        num_batches += 1
    print(f"Epoch {epoch + 1}, Loss: {total_loss / num_batches}, Accuracy: {train_accuracy.result() * 100}")
    train_accuracy.reset_state()
