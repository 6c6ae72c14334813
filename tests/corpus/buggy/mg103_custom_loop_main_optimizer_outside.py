"""Fashion-MNIST with a custom distributed training loop, wrapped in main() (custom_training style)."""
import argparse
import os

import numpy as np
import tensorflow as tf


def create_model():
    regularizer = tf.keras.regularizers.L2(1e-5)
    return tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Conv2D(64, 3, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(64, activation="relu", kernel_regularizer=regularizer),
        tf.keras.layers.Dense(10),
    ])


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--per-replica-batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--ckpt-dir", default="./training_checkpoints")
    return parser.parse_args()


def main():
    args = parse_args()
    strategy = tf.distribute.MirroredStrategy()
    global_batch = args.per_replica_batch * strategy.num_replicas_in_sync

    (train_images, train_labels), (test_images, test_labels) = tf.keras.datasets.fashion_mnist.load_data()
    train_images = (train_images[..., None] / np.float32(255))
    test_images = (test_images[..., None] / np.float32(255))

    train_ds = tf.data.Dataset.from_tensor_slices((train_images, train_labels)).shuffle(60000).batch(global_batch)
    test_ds = tf.data.Dataset.from_tensor_slices((test_images, test_labels)).batch(global_batch)
    train_dist = strategy.experimental_distribute_dataset(train_ds)
    test_dist = strategy.experimental_distribute_dataset(test_ds)

    # Optimizer and metrics set up with the rest of the hyper-parameters...
    optimizer = tf.keras.optimizers.Adam(learning_rate=args.lr)  # expect: MG103
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")  # expect: MG103
    test_loss = tf.keras.metrics.Mean(name="test_loss")  # expect: MG103

    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    # ...but only the model is created under the strategy.
    with strategy.scope():
        model = create_model()
        checkpoint = tf.train.Checkpoint(model=model)

    def compute_loss(labels, predictions):
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=global_batch)
        return loss + tf.nn.scale_regularization_loss(model.losses)

    def train_step(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            loss = compute_loss(labels, predictions)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        train_accuracy.update_state(labels, predictions)
        return loss

    def test_step(inputs):
        images, labels = inputs
        predictions = model(images, training=False)
        test_loss.update_state(loss_object(labels, predictions))

    @tf.function
    def distributed_train_step(dataset_inputs):
        per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    @tf.function
    def distributed_test_step(dataset_inputs):
        return strategy.run(test_step, args=(dataset_inputs,))

    for epoch in range(args.epochs):
        total_loss, num_batches = 0.0, 0
        for x in train_dist:
            total_loss += distributed_train_step(x)
            num_batches += 1
        for x in test_dist:
            distributed_test_step(x)
        if epoch % 2 == 0:
            checkpoint.save(os.path.join(args.ckpt_dir, "ckpt"))
        print(f"epoch {epoch + 1}: loss {total_loss / num_batches:.4f}, "
              f"acc {train_accuracy.result() * 100:.2f}, test loss {test_loss.result():.4f}")
        test_loss.reset_state()
        train_accuracy.reset_state()

    model.save("fashion_mnist.keras")


if __name__ == "__main__":
    main()
