"""Input pipeline per replica with distribute_datasets_from_function (tf.distribute input guide style)."""
import tensorflow as tf

GLOBAL_BATCH_SIZE = 256
strategy = tf.distribute.MirroredStrategy()


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
    files = tf.data.Dataset.list_files("/data/imagenet/train-*", shuffle=True)
    files = files.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    ds = files.interleave(tf.data.TFRecordDataset, cycle_length=8, num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.map(lambda r: tf.io.parse_tensor(r, tf.float32), num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.map(lambda t: (t[:-1], t[-1]))
    ds = ds.shuffle(10_000).repeat()
    ds = ds.batch(batch_size, drop_remainder=True)
    return ds.prefetch(2)


dist_dataset = strategy.distribute_datasets_from_function(dataset_fn)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(1024, activation="relu"),
        tf.keras.layers.Dense(1000),
    ])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    train_loss = tf.keras.metrics.Mean("train_loss")


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(features, training=True)
            per_example = tf.keras.losses.sparse_categorical_crossentropy(
                tf.cast(labels, tf.int32), logits, from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        train_loss.update_state(loss * strategy.num_replicas_in_sync)

    strategy.run(step_fn, args=(next(iterator),))


iterator = iter(dist_dataset)
for step in range(10_000):
    train_step(iterator)
    if step % 100 == 0:
        print(step, float(train_loss.result()))
        train_loss.reset_state()
