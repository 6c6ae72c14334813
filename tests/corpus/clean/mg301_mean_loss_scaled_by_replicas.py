"""Older tensorflow/models-style replica step: mean loss divided by num_replicas_in_sync before the gradient."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
PER_REPLICA_BATCH = 128
GLOBAL_BATCH = PER_REPLICA_BATCH * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.applications.MobileNetV3Small(weights=None, classes=10, input_shape=(32, 32, 3))
    optimizer = tf.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True)
    train_loss = tf.keras.metrics.Mean("train_loss")


def replica_step(images, labels):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits))
        scaled_loss = loss / strategy.num_replicas_in_sync
    grads = tape.gradient(scaled_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_loss.update_state(loss)


@tf.function
def train_steps(iterator, steps):
    for _ in tf.range(steps):
        images, labels = next(iterator)
        strategy.run(replica_step, args=(images, labels))


(x, y), _ = tf.keras.datasets.cifar10.load_data()
ds = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(50000).repeat().batch(GLOBAL_BATCH, drop_remainder=True)
iterator = iter(strategy.experimental_distribute_dataset(ds))
for epoch in range(10):
    train_steps(iterator, tf.constant(50000 // GLOBAL_BATCH))
    print(epoch, float(train_loss.result()))
    train_loss.reset_state()
