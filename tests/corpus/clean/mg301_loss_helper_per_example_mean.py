"""Custom loop whose loss helper takes a per-example mean over the feature axis and returns
compute_average_loss; a plain batch mean only feeds an RMSE tracker (tensorflow/docs custom_training)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 50 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.01)
    rmse = tf.keras.metrics.Mean(name="batch_rmse")


def loss_fn(y, pred):
    per_example = tf.reduce_mean(tf.square(y - pred), axis=-1)
    return tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)


def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = loss_fn(y, pred)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    rmse.update_state(tf.sqrt(tf.reduce_mean(tf.square(y - pred))))
    return loss


@tf.function
def distributed_step(x, y):
    per_replica = strategy.run(train_step, args=(x, y))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


x = tf.random.normal([5000, 8])
y = tf.reduce_sum(x, axis=1, keepdims=True)
for epoch in range(3):
    rmse.reset_state()
    for xb, yb in strategy.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH_SIZE)):
        distributed_step(xb, yb)
    print(epoch, rmse.result().numpy())
