"""MG301 (invalid): the differentiated loss is a plain mean inside the replica function.

Style: single-GPU custom loops (keras-io "writing a training loop from scratch",
`loss_value = loss_fn(y, logits)` / `tf.reduce_mean`) wrapped in `strategy.run` as in
tensorflow/docs custom_training.ipynb, without `compute_average_loss`. Measured:
2 replicas take a step twice too large. Reported at the line of the mean.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train.reshape(-1, 784) / 255.0, y_train)).batch(GLOBAL_BATCH_SIZE)
dist_ds = strategy.experimental_distribute_dataset(ds)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(1e-2)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def train_step(inputs):
    x, y = inputs
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(loss_fn(y, logits))  # expect: MG301
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


def autoencoder_step(inputs):
    x, _ = inputs
    with tf.GradientTape() as tape:
        recon = model(x, training=True)
        per_example = tf.reduce_sum(tf.square(tf.one_hot(tf.argmax(x, axis=1), 10) - recon), axis=1)
        loss = tf.math.reduce_mean(per_example)  # expect: MG301
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_weights), model.trainable_weights))
    return loss


@tf.function
def distributed_train_step(inputs):
    per_replica_losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_losses, axis=None)


@tf.function
def distributed_ae_step(inputs):
    return strategy.run(autoencoder_step, args=(inputs,))


for epoch in range(3):
    for batch in dist_ds:
        distributed_train_step(batch)
        distributed_ae_step(batch)
