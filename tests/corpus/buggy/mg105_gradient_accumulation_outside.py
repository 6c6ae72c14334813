"""Gradient accumulation in a distributed custom loop (pattern from public "accumulate gradients TF2"
repos); accumulators are made after the scope, from the model's variables."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
ACCUM_STEPS = 4
GLOBAL_BATCH = 8 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(128, activation="gelu"),
                                 tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-4)

accumulated = [tf.Variable(tf.zeros_like(v), trainable=False) for v in model.trainable_variables]  # expect: MG105
mse = tf.keras.losses.MeanSquaredError(reduction="none")

ds = tf.data.Dataset.from_tensor_slices((tf.random.normal([4096, 32]), tf.random.normal([4096, 1])))
dist_ds = strategy.experimental_distribute_dataset(ds.batch(GLOBAL_BATCH))


def accumulate(x, y):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(mse(y, model(x, training=True)), global_batch_size=GLOBAL_BATCH)
        loss = loss / ACCUM_STEPS
    for acc, g in zip(accumulated, tape.gradient(loss, model.trainable_variables)):
        acc.assign_add(g)
    return loss


def apply_accumulated():
    optimizer.apply_gradients(zip(accumulated, model.trainable_variables))
    for acc in accumulated:
        acc.assign(tf.zeros_like(acc))


@tf.function
def micro_step(x, y):
    return strategy.run(accumulate, args=(x, y))


@tf.function
def apply_step():
    strategy.run(apply_accumulated)


for i, (x, y) in enumerate(dist_ds):
    micro_step(x, y)
    if (i + 1) % ACCUM_STEPS == 0:
        apply_step()
