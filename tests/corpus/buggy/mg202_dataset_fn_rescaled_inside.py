"""distribute_datasets_from_function with an InputContext (tensorflow/docs distribute/input), but the
per-replica size is multiplied back up by the replica count inside the input function."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
PER_REPLICA_BATCH = 128


def dataset_fn(input_context):
    ds = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/train-*.tfrecord"))
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    ds = ds.map(lambda r: tf.io.parse_single_example(r, {"x": tf.io.FixedLenFeature([16], tf.float32),
                                                         "y": tf.io.FixedLenFeature([], tf.int64)}))
    ds = ds.map(lambda ex: (ex["x"], ex["y"]))
    batch = PER_REPLICA_BATCH * input_context.num_replicas_in_sync
    return ds.shuffle(1024).batch(batch, drop_remainder=True).prefetch(2)  # expect: MG202


dist_ds = strategy.distribute_datasets_from_function(dataset_fn)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(4)])
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


@tf.function
def train_step(batch):
    def replica_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(loss_obj(y, model(x, training=True)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss
    losses = strategy.run(replica_fn, args=batch)
    return strategy.reduce("SUM", losses, axis=None)


for step, batch in enumerate(dist_ds):
    loss = train_step(batch)
    if step % 100 == 0:
        print(step, loss.numpy())
