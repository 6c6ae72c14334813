"""Current tensorflow/docs custom_training spelling: compute_average_loss without global_batch_size
(TF derives it from the replica's batch), scale_regularization_loss for the L2 terms."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 32 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(64, activation="relu", kernel_regularizer=tf.keras.regularizers.L2(1e-4)),
        tf.keras.layers.Dense(1),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    train_mae = tf.keras.metrics.MeanAbsoluteError()
    loss_obj = tf.keras.losses.Huber(reduction=tf.keras.losses.Reduction.NONE)

ds = tf.data.Dataset.from_tensor_slices((tf.random.normal([2048, 12]), tf.random.normal([2048, 1])))
dist_ds = strategy.experimental_distribute_dataset(ds.shuffle(2048).batch(GLOBAL_BATCH_SIZE, drop_remainder=True))


def step_fn(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = tf.nn.compute_average_loss(loss_obj(y, pred))
        loss += tf.nn.scale_regularization_loss(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_mae.update_state(y, pred)
    return loss


@tf.function
def train_step(x, y):
    per_replica = strategy.run(step_fn, args=(x, y))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


for epoch in range(4):
    train_mae.reset_state()
    for x, y in dist_ds:
        loss = train_step(x, y)
    print(f"epoch {epoch} loss {float(loss):.3f} mae {float(train_mae.result()):.3f}")
