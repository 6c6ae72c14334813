"""Custom loop: the training loss is averaged over the global batch; the eval step's mean is only logged."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam()
    eval_loss = tf.keras.metrics.Mean()
mse = tf.keras.losses.MeanSquaredError(reduction="none")


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(mse(y, model(x, training=True)), global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


def eval_step(x, y):
    eval_loss.update_state(tf.reduce_mean(mse(y, model(x, training=False))))


@tf.function
def run_train(x, y):
    return strategy.run(train_step, args=(x, y))


@tf.function
def run_eval(x, y):
    strategy.run(eval_step, args=(x, y))
