"""Reusable step function that takes the model and optimizer as arguments (public utils/train.py files),
bound for strategy.run with a lambda."""
import tensorflow as tf


def train_step(batch, model, optimizer, loss_fn):
    features, labels = batch
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        loss = tf.reduce_mean(loss_fn(labels, logits))  # expect: MG301
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def main():
    strategy = tf.distribute.MirroredStrategy()
    global_batch = 64 * strategy.num_replicas_in_sync
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(5)])
        optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    @tf.function
    def distributed_step(batch):
        losses = strategy.run(lambda b: train_step(b, model, optimizer, loss_fn), args=(batch,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    ds = tf.data.Dataset.from_tensor_slices((tf.random.normal([1000, 30]),
                                             tf.random.uniform([1000], maxval=5, dtype=tf.int32)))
    for epoch in range(3):
        for batch in strategy.experimental_distribute_dataset(ds.shuffle(1000).batch(global_batch)):
            loss = distributed_step(batch)
        print(epoch, float(loss))


if __name__ == "__main__":
    main()
