"""distribute_datasets_from_function where the per-replica size is computed by hand from the context
(older keras-cv / tensorflow/models input readers); the division is right *inside* the input function."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 256


def input_fn(input_context):
    per_replica_batch = GLOBAL_BATCH_SIZE // input_context.num_replicas_in_sync
    files = tf.data.Dataset.list_files("gs://bucket/imagenet/train-*", shuffle=False)
    files = files.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    ds = files.interleave(tf.data.TFRecordDataset, cycle_length=8, num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.map(lambda r: (tf.zeros([64, 64, 3]), tf.constant(0, tf.int64)))
    return ds.shuffle(4096).batch(per_replica_batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


dist_ds = strategy.distribute_datasets_from_function(input_fn)

with strategy.scope():
    model = tf.keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3), classes=1000)
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)
    top1 = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)


@tf.function
def train_step(iterator):
    def step(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            per_example = tf.keras.losses.sparse_categorical_crossentropy(labels, logits)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        top1.update_state(labels, logits)
        return loss
    return strategy.run(step, args=next(iterator))


it = iter(dist_ds)
for i in range(1000):
    train_step(it)
    if i % 100 == 0:
        print(i, top1.result().numpy())
