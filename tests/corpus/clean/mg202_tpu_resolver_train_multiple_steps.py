"""tensorflow/docs guide/tpu custom loop done right: resolver, connect, initialize; metrics, optimizer and
model in the scope; several steps per tf.function call with tf.range and next(iterator)."""
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

batch_size = 200
steps_per_epoch = 60000 // batch_size


def get_dataset(bs, is_training=True):
    ds = tf.data.Dataset.from_tensor_slices((tf.zeros([60000, 28, 28, 1]), tf.zeros([60000], tf.int64)))
    if is_training:
        ds = ds.shuffle(10000).repeat()
    return ds.batch(bs, drop_remainder=True)


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3, activation="relu"), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()
    training_loss = tf.keras.metrics.Mean("training_loss", dtype=tf.float32)
    training_accuracy = tf.keras.metrics.SparseCategoricalAccuracy("training_accuracy", dtype=tf.float32)

per_replica_batch_size = batch_size // strategy.num_replicas_in_sync
train_dataset = strategy.distribute_datasets_from_function(
    lambda ctx: get_dataset(per_replica_batch_size, is_training=True))


@tf.function
def train_multiple_steps(iterator, steps):
    def step_fn(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            per_example_loss = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
            loss = tf.nn.compute_average_loss(per_example_loss)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(list(zip(grads, model.trainable_variables)))
        training_loss.update_state(loss * strategy.num_replicas_in_sync)
        training_accuracy.update_state(labels, logits)

    for _ in tf.range(steps):
        strategy.run(step_fn, args=(next(iterator),))


train_iterator = iter(train_dataset)
for epoch in range(5):
    train_multiple_steps(train_iterator, tf.convert_to_tensor(steps_per_epoch))
    print("Epoch", epoch, training_loss.result().numpy(), training_accuracy.result().numpy())
    training_loss.reset_state()
    training_accuracy.reset_state()
