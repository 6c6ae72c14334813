"""A custom loop that never names a global batch: the per-replica size goes to the input function (a
lambda given to distribute_datasets_from_function) and compute_average_loss derives the global size
itself (tensorflow/docs guide/tpu and custom_training, current spelling)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 32
STEPS_PER_EPOCH = 250


def make_input(per_replica_batch, ctx):
    (x, y), _ = tf.keras.datasets.cifar10.load_data()
    ds = tf.data.Dataset.from_tensor_slices((x, y[:, 0]))
    ds = ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id)
    ds = ds.map(lambda im, lb: (tf.cast(im, tf.float32) / 255.0, lb), num_parallel_calls=tf.data.AUTOTUNE)
    return ds.shuffle(5000).repeat().batch(per_replica_batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)


dist_ds = strategy.distribute_datasets_from_function(lambda ctx: make_input(BATCH_SIZE_PER_REPLICA, ctx))

with strategy.scope():
    model = tf.keras.applications.ResNet50V2(weights=None, input_shape=(32, 32, 3), classes=10)
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    top1 = tf.keras.metrics.SparseCategoricalAccuracy()


@tf.function
def train_epoch(iterator):
    def step_fn(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            per_example = tf.keras.losses.sparse_categorical_crossentropy(labels, logits)
            loss = tf.nn.compute_average_loss(per_example)
            loss += tf.nn.scale_regularization_loss(model.losses)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        top1.update_state(labels, logits)
    for _ in tf.range(STEPS_PER_EPOCH):
        strategy.run(step_fn, args=next(iterator))


iterator = iter(dist_ds)
for epoch in range(30):
    train_epoch(iterator)
    print(epoch, top1.result().numpy())
    top1.reset_state()
