"""tensorflow/docs guide/tpu custom-loop section (TPUClusterResolver, experimental_connect_to_cluster,
train_multiple_steps); the loss tracker sits with the logging set-up before the scope."""
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

summary_writer = tf.summary.create_file_writer("gs://bucket/logs")
training_loss = tf.keras.metrics.Mean("training_loss", dtype=tf.float32)  # expect: MG103

per_replica_batch_size = 128 // strategy.num_replicas_in_sync
steps_per_epoch = 60000 // 128


def dataset_fn(ctx):
    bs = ctx.get_per_replica_batch_size(128)
    ds = tf.data.Dataset.from_tensor_slices((tf.zeros([60000, 28, 28, 1]), tf.zeros([60000], tf.int64)))
    ds = ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id)
    return ds.shuffle(10000).batch(bs, drop_remainder=True).repeat().prefetch(tf.data.AUTOTUNE)


train_dataset = strategy.distribute_datasets_from_function(dataset_fn)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3, activation="relu"),
                                 tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()
    training_accuracy = tf.keras.metrics.SparseCategoricalAccuracy("training_accuracy", dtype=tf.float32)


@tf.function
def train_multiple_steps(iterator, steps):
    def step_fn(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            per_example_loss = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
            loss = tf.nn.compute_average_loss(per_example_loss)
            model_losses = model.losses
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(list(zip(grads, model.trainable_variables)))
        training_loss.update_state(loss * strategy.num_replicas_in_sync)
        training_accuracy.update_state(labels, logits)

    for _ in tf.range(steps):
        strategy.run(step_fn, args=(next(iterator),))


train_iterator = iter(train_dataset)
for epoch in range(5):
    train_multiple_steps(train_iterator, tf.convert_to_tensor(steps_per_epoch))
    with summary_writer.as_default():
        tf.summary.scalar("loss", training_loss.result(), step=epoch)
    training_loss.reset_state()
    training_accuracy.reset_state()
