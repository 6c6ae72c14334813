"""distribute_datasets_from_function with the input function written as a lambda that forwards the
per-replica batch size to the file's dataset builder (tensorflow/docs guide/tpu and
distribute/input habits): the per-replica size is right there."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync


def build_dataset(per_replica_batch, input_context):
    ds = tf.data.Dataset.from_tensor_slices((tf.random.normal([10000, 28]), tf.random.uniform([10000], maxval=2)))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.shuffle(10000).repeat().batch(per_replica_batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


train_dist = strategy.distribute_datasets_from_function(
    lambda ctx: build_dataset(BATCH_SIZE_PER_REPLICA, ctx))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((28,)), tf.keras.layers.Dense(300, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    auc = tf.keras.metrics.AUC(from_logits=True)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction="none")


@tf.function
def train_steps(iterator, steps):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = tf.nn.compute_average_loss(bce(y[:, None], logits), global_batch_size=GLOBAL_BATCH_SIZE)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        auc.update_state(y[:, None], logits)
    for _ in tf.range(steps):
        strategy.run(step_fn, args=next(iterator))


iterator = iter(train_dist)
for epoch in range(5):
    train_steps(iterator, tf.constant(100))
    print(epoch, auc.result().numpy())
    auc.reset_state()
