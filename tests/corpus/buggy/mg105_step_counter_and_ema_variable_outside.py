"""Research-repo custom loop: TF1-style global_step and a loss EMA kept as module-level variables."""
import tensorflow as tf

FLAGS_batch_per_replica = 32
strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
global_batch = FLAGS_batch_per_replica * strategy.num_replicas_in_sync

global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")  # expect: MG105
running_loss = tf.Variable(0.0, trainable=False)  # expect: MG105

with strategy.scope():
    model = tf.keras.applications.ResNet50(weights=None, classes=100, input_shape=(64, 64, 3))
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def replica_step(images, labels):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = tf.nn.compute_average_loss(loss_fn(labels, logits), global_batch_size=global_batch)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    global_step.assign_add(1)
    running_loss.assign(0.99 * running_loss + 0.01 * loss)
    return loss


@tf.function
def train_step(iterator):
    images, labels = next(iterator)
    per_replica = strategy.run(replica_step, args=(images, labels))
    return strategy.reduce("SUM", per_replica, axis=None)


def make_dataset():
    images = tf.random.uniform([1024, 64, 64, 3])
    labels = tf.random.uniform([1024], maxval=100, dtype=tf.int32)
    return tf.data.Dataset.from_tensor_slices((images, labels)).repeat().batch(global_batch)


iterator = iter(strategy.experimental_distribute_dataset(make_dataset()))
while int(global_step.numpy()) < 1000:
    loss = train_step(iterator)
    if int(global_step.numpy()) % 100 == 0:
        print(int(global_step.numpy()), float(loss), float(running_loss.numpy()))
