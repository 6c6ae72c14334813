"""MG105 (valid): step counter, normalizer and checkpoint variables created inside the scope.

Style: tensorflow/docs custom_training.ipynb and the regression tutorial done
right: `Normalization` created and adapted under `strategy.scope()`, the step
counter is the optimizer's own `iterations`, and a host-only best-loss variable
(never used in the replica function, never tracked by the checkpoint) lives
outside.
"""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync

features = np.random.rand(10_000, 9).astype("float32")
targets = features @ np.arange(9, dtype="float32")
dist_ds = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((features, targets)).shuffle(10_000).batch(GLOBAL_BATCH_SIZE))

best_loss = tf.Variable(np.inf, trainable=False)  # host-side bookkeeping only

with strategy.scope():
    normalizer = tf.keras.layers.Normalization(axis=-1)
    normalizer.adapt(features)
    model = tf.keras.Sequential([normalizer, tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    epoch = tf.Variable(0, trainable=False)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)


def train_step(x, y):
    with tf.GradientTape() as tape:
        per_example = tf.square(y[:, None] - model(x, training=True))[:, 0]
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_step(x, y):
    return strategy.reduce("SUM", strategy.run(train_step, args=(x, y)), axis=None)


for _ in range(5):
    total = 0.0
    for x, y in dist_ds:
        total += float(distributed_step(x, y))
    epoch.assign_add(1)
    if total < float(best_loss):
        best_loss.assign(total)
        checkpoint.write("best/ckpt")
    print("step", int(optimizer.iterations), "loss", total)
