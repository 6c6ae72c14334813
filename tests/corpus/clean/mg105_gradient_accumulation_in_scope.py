"""Gradient accumulation done right: ON_READ accumulators made in the scope, accumulation counter as an
ONLY_FIRST_REPLICA variable; CheckpointManager made outside (it holds no variables)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
ACCUM_STEPS = 8
GLOBAL_BATCH = 4 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(256, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(5e-5)
    accum = [tf.Variable(tf.zeros_like(v), trainable=False,
                         synchronization=tf.VariableSynchronization.ON_READ,
                         aggregation=tf.VariableAggregation.SUM) for v in model.trainable_variables]
    micro_steps = tf.Variable(0, trainable=False, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer, micro_steps=micro_steps)

manager = tf.train.CheckpointManager(ckpt, "/tmp/accum", max_to_keep=2)
mse = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
ds = tf.data.Dataset.from_tensor_slices((tf.random.normal([8192, 64]), tf.random.normal([8192, 1])))
dist_ds = strategy.experimental_distribute_dataset(ds.batch(GLOBAL_BATCH, drop_remainder=True))


def replica_step(x, y):
    with tf.GradientTape() as tape:
        per_example = mse(y, model(x, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH * ACCUM_STEPS)
    for a, g in zip(accum, tape.gradient(loss, model.trainable_variables)):
        a.assign_add(g)
    micro_steps.assign_add(1)
    return loss


def apply_fn():
    optimizer.apply_gradients(zip([a.read_value() for a in accum], model.trainable_variables))
    for a in accum:
        a.assign(tf.zeros_like(a))


@tf.function
def step(x, y):
    strategy.run(replica_step, args=(x, y))


for x, y in dist_ds:
    step(x, y)
    if int(micro_steps.numpy()) % ACCUM_STEPS == 0:
        strategy.run(tf.function(apply_fn))
manager.save()
