"""Custom loop with early stopping: counters tracked by the checkpoint live in the scope, host-only ones outside."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 256 * strategy.num_replicas_in_sync
summary_writer = tf.summary.create_file_writer("logs/train")
best_val_loss = tf.Variable(np.inf, trainable=False, dtype=tf.float32)
epochs_without_improvement = tf.Variable(0, trainable=False)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    epoch_var = tf.Variable(0, trainable=False, dtype=tf.int64)
    val_loss_metric = tf.keras.metrics.Mean()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch_var)
    manager = tf.train.CheckpointManager(checkpoint, "ckpts", max_to_keep=3)


def replica_train(x, y):
    with tf.GradientTape() as tape:
        per_example = tf.keras.losses.mean_squared_error(y, model(x, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


def replica_eval(x, y):
    val_loss_metric.update_state(tf.keras.losses.mean_squared_error(y, model(x, training=False)))


@tf.function
def train_step(x, y):
    return strategy.reduce("SUM", strategy.run(replica_train, args=(x, y)), axis=None)


@tf.function
def eval_step(x, y):
    strategy.run(replica_eval, args=(x, y))


features = np.random.rand(20_000, 8).astype("float32")
targets = features.sum(axis=1, keepdims=True)
train_ds = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((features[:16000], targets[:16000])).shuffle(16000).batch(GLOBAL_BATCH))
val_ds = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((features[16000:], targets[16000:])).batch(GLOBAL_BATCH))

manager.restore_or_initialize()
while int(epoch_var.numpy()) < 100 and int(epochs_without_improvement.numpy()) < 5:
    for x, y in train_ds:
        loss = train_step(x, y)
    for x, y in val_ds:
        eval_step(x, y)
    current = val_loss_metric.result()
    with summary_writer.as_default():
        tf.summary.scalar("val_loss", current, step=optimizer.iterations)
    if current < best_val_loss:
        best_val_loss.assign(current)
        epochs_without_improvement.assign(0)
        manager.save()
    else:
        epochs_without_improvement.assign_add(1)
    epoch_var.assign_add(1)
    val_loss_metric.reset_state()
