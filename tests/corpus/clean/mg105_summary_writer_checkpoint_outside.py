"""Custom loop with TensorBoard summaries and checkpoints (tensorflow/docs guide/checkpoint +
distribute/custom_training): optimizer.iterations as the step; writer and Checkpoint objects made after
the scope hold no variables of their own."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((10,)), tf.keras.layers.Dense(32, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    train_loss = tf.keras.metrics.Mean("train_loss")

writer = tf.summary.create_file_writer("logs/train")
checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
manager = tf.train.CheckpointManager(checkpoint, "ckpts", max_to_keep=5)
checkpoint.restore(manager.latest_checkpoint).expect_partial()
mse = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)


def replica_fn(x, y):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(mse(y, model(x, training=True)), global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    train_loss.update_state(loss)
    return loss


@tf.function
def train_step(x, y):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_fn, args=(x, y)), axis=None)


ds = tf.data.Dataset.from_tensor_slices((tf.random.normal([1024, 10]), tf.random.normal([1024, 1])))
dist_ds = strategy.experimental_distribute_dataset(ds.batch(GLOBAL_BATCH_SIZE))
for epoch in range(5):
    for x, y in dist_ds:
        train_step(x, y)
    with writer.as_default():
        tf.summary.scalar("loss", train_loss.result(), step=optimizer.iterations)
    train_loss.reset_state()
    manager.save(checkpoint_number=optimizer.iterations)
