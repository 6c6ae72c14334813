"""TF 2.0-era tensorflow/docs custom_training (experimental_run_v2, strategy.reduce) done right; the host
averages the reduced losses with plain Python and a MEAN reduction of per-replica metrics."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

(x, y), (xt, yt) = tf.keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(50000).batch(GLOBAL_BATCH_SIZE)
test_ds = tf.data.Dataset.from_tensor_slices((xt / 255.0, yt)).batch(GLOBAL_BATCH_SIZE)
train_dist = strategy.experimental_distribute_dataset(train_ds)
test_dist = strategy.experimental_distribute_dataset(test_ds)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3, activation="relu"),
                                 tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.01)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    def compute_loss(labels, predictions):
        per_example_loss = loss_object(labels, predictions)
        return tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        loss = compute_loss(labels, model(images, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


def test_step(inputs):
    images, labels = inputs
    predictions = model(images, training=False)
    return tf.reduce_mean(tf.cast(tf.equal(tf.argmax(predictions, -1), tf.squeeze(labels, -1)), tf.float32))


@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.experimental_run_v2(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


@tf.function
def distributed_test_step(dataset_inputs):
    per_replica_acc = strategy.experimental_run_v2(test_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_acc, axis=None)


for epoch in range(10):
    losses = [distributed_train_step(batch) for batch in train_dist]
    accs = [distributed_test_step(batch) for batch in test_dist]
    print(epoch, sum(losses) / len(losses), sum(accs) / len(accs))
