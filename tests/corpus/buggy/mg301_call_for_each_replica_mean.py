"""TF 2.0-era tensorflow/models trainer code that dispatched with
`strategy.extended.call_for_each_replica` (the API under experimental_run_v2) and a plain mean loss."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(0.1)


def _replica_step(features, labels):
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        loss = tf.reduce_mean(  # expect: MG301
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_step(features, labels):
    per_replica = strategy.extended.call_for_each_replica(_replica_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


x = tf.random.normal([1024, 32])
y = tf.cast(x[:, 0] > 0, tf.int32)
for xb, yb in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)):
    train_step(xb, yb)
