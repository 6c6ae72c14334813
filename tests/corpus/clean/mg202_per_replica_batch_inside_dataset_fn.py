"""distribute_datasets_from_function with the per-replica constant used inside the input function (correct)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync


def dataset_fn(input_context):
    ds = tf.data.Dataset.range(100_000).map(lambda i: (tf.cast(i % 97, tf.float32)[None], tf.cast(i % 2, tf.float32)))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.shuffle(1024).batch(BATCH_SIZE_PER_REPLICA, drop_remainder=True).prefetch(2)


dist_ds = strategy.distribute_datasets_from_function(dataset_fn)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam()
    loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def replica_step(features, labels):
    with tf.GradientTape() as tape:
        per_example = loss_object(labels[:, None], model(features, training=True))
        loss = tf.reduce_sum(per_example) / GLOBAL_BATCH_SIZE
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def train_step(iterator):
    features, labels = next(iterator)
    return strategy.reduce("SUM", strategy.run(replica_step, args=(features, labels)), axis=None)


iterator = iter(dist_ds)
for step in range(200):
    loss = train_step(iterator)
print(float(loss))
