"""CIFAR-10 custom loop in main(): everything with state is created under the strategy, eval + export after."""
import argparse
import os

import tensorflow as tf


def build_model(num_classes=10):
    return tf.keras.Sequential([
        tf.keras.layers.Input((32, 32, 3)),
        tf.keras.layers.Rescaling(1 / 255.0),
        tf.keras.layers.Conv2D(64, 3, activation="relu"),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Conv2D(128, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(num_classes),
    ])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-per-replica", type=int, default=128)
    parser.add_argument("--export-dir", default="export/cifar10")
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    global_batch = args.batch_per_replica * strategy.num_replicas_in_sync

    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
    train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(50_000).batch(global_batch)
    test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(global_batch)
    train_dist = strategy.experimental_distribute_dataset(train_ds)
    test_dist = strategy.experimental_distribute_dataset(test_ds)

    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    with strategy.scope():
        model = build_model()
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.9, nesterov=True)
        train_acc = tf.keras.metrics.SparseCategoricalAccuracy(name="train_acc")
        test_acc = tf.keras.metrics.SparseCategoricalAccuracy(name="test_acc")
        ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer)
        manager = tf.train.CheckpointManager(ckpt, "ckpts", max_to_keep=3)
        ckpt.restore(manager.latest_checkpoint)

    def train_step(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=global_batch)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        train_acc.update_state(labels, logits)
        return loss

    def test_step(inputs):
        images, labels = inputs
        test_acc.update_state(labels, model(images, training=False))

    @tf.function
    def distributed_train_step(batch):
        losses = strategy.run(train_step, args=(batch,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    @tf.function
    def distributed_test_step(batch):
        strategy.run(test_step, args=(batch,))

    for epoch in range(args.epochs):
        total, steps = 0.0, 0
        for batch in train_dist:
            total += distributed_train_step(batch)
            steps += 1
        for batch in test_dist:
            distributed_test_step(batch)
        manager.save()
        print(f"epoch {epoch}: loss={total / steps:.3f} train={train_acc.result():.3f} test={test_acc.result():.3f}")
        train_acc.reset_state()
        test_acc.reset_state()

    # Evaluation on the host after training: plain metric objects, nothing distributed.
    predictions = tf.argmax(model.predict(x_test, verbose=0), axis=-1)
    confusion = tf.math.confusion_matrix(tf.squeeze(y_test), predictions, num_classes=10)
    print(confusion.numpy())
    tf.saved_model.save(model, os.path.join(args.export_dir, "1"))


if __name__ == "__main__":
    main()
