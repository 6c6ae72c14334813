"""Reusable step function bound with functools.partial before strategy.run; the loss is a plain mean."""
import functools

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(28, 28)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()


def train_step(batch, model, optimizer, metric):
    images, labels = batch
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        per_example = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
        loss = tf.reduce_mean(per_example)  # expect: MG301
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    metric.update_state(labels, logits)
    return loss


step_fn = functools.partial(train_step, model=model, optimizer=optimizer, metric=accuracy)


@tf.function
def distributed_step(batch):
    per_replica = strategy.run(step_fn, args=(batch,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(60000).batch(GLOBAL_BATCH)
for epoch in range(3):
    for batch in strategy.experimental_distribute_dataset(ds):
        distributed_step(batch)
    print(epoch, float(accuracy.result()))
    accuracy.reset_state()
