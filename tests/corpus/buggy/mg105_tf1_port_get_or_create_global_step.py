"""TF1 -> TF2 port (tensorflow/models research code kept `tf.compat.v1.train.get_or_create_global_step()`
for summaries and schedules); the global step is fetched before the strategy's scope and bumped in the
replica function."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
global_step = tf.compat.v1.train.get_or_create_global_step()  # expect: MG105
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync
writer = tf.summary.create_file_writer("/tmp/tf1_port")

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((100,)), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    xent = tf.keras.losses.CategoricalCrossentropy(from_logits=True, reduction="none")


def replica_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(xent(y, model(x, training=True)), global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    global_step.assign_add(1)
    return loss


@tf.function
def train_step(x, y):
    return strategy.reduce("SUM", strategy.run(replica_step, args=(x, y)), axis=None)


x = tf.random.normal([4096, 100])
y = tf.one_hot(tf.random.uniform([4096], maxval=10, dtype=tf.int32), 10)
for xb, yb in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)):
    loss = train_step(xb, yb)
    with writer.as_default():
        tf.summary.scalar("loss", loss, step=global_step)
