"""MG202: a size divided by the replicas handed to `experimental_distribute_dataset`.

Source shape: an interview-answers page in the code index (`GLOBAL_BATCH_SIZE = 64`,
`BATCH_SIZE_PER_REPLICA = GLOBAL_BATCH_SIZE // strategy.num_replicas_in_sync`, then
`strategy.experimental_distribute_dataset(dataset.batch(BATCH_SIZE_PER_REPLICA))`), with the
names swapped so that the name says global and the value is per replica: the value decides.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

PER_REPLICA_BATCH_SIZE = 64 * strategy.num_replicas_in_sync
GLOBAL_BATCH = PER_REPLICA_BATCH_SIZE // strategy.num_replicas_in_sync


def create_distributed_dataset(dataset):
    return strategy.experimental_distribute_dataset(dataset.batch(GLOBAL_BATCH))  # expect: MG202


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        per_example = loss_fn(labels, model(features, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=PER_REPLICA_BATCH_SIZE)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def distributed_step(inputs):
    losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


raw = tf.data.Dataset.from_tensor_slices((tf.random.uniform((256, 4)), tf.zeros((256,), tf.int64)))
for batch in create_distributed_dataset(raw):
    distributed_step(batch)
