"""Custom loop whose epoch statistics are kept on the host: a Keras Mean made outside the scope is only
fed the already-reduced loss returned by strategy.reduce (never used inside a replica function)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((20,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

epoch_loss = tf.keras.metrics.Mean(name="epoch_loss")
val_loss_history = []


def replica_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(ce(y, model(x, training=True)), global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_step(x, y):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_step, args=(x, y)), axis=None)


x = tf.random.normal([2000, 20])
y = tf.cast(x[:, 0] > 0, tf.int32)
dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH))
for epoch in range(10):
    epoch_loss.reset_state()
    for xb, yb in dist:
        epoch_loss.update_state(distributed_step(xb, yb))
    val_loss_history.append(float(epoch_loss.result()))
    print(f"epoch {epoch}: {val_loss_history[-1]:.4f}")
