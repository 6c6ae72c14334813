"""MG301 (valid): loss scaled by the global batch, and means that are not the differentiated loss.

Style: tensorflow/docs custom_training.ipynb (`tf.nn.compute_average_loss(
per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)` plus
`tf.nn.scale_regularization_loss(model.losses)`), the hand-written equivalent
`tf.reduce_sum(per_example) * (1.0 / GLOBAL_BATCH_SIZE)` seen in public trainers,
a per-example loss that is itself a mean over the feature axis, and a
`tf.reduce_mean` used only for a logged metric.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu",
                                                       kernel_regularizer=tf.keras.regularizers.L2(1e-4)),
                                 tf.keras.layers.Dense(16)])
    optimizer = tf.keras.optimizers.Adam()
    mae_metric = tf.keras.metrics.Mean(name="mae")
    loss_object = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)

ds = tf.data.Dataset.from_tensor_slices((tf.random.normal((4096, 32)), tf.random.normal((4096, 16))))
dist = strategy.experimental_distribute_dataset(ds.batch(GLOBAL_BATCH_SIZE))


def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        per_example = tf.reduce_mean(tf.square(y - pred), axis=-1)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        loss += tf.nn.scale_regularization_loss(model.losses)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    mae_metric.update_state(tf.reduce_mean(tf.abs(y - pred)))
    return loss


def finetune_step(x, y):
    with tf.GradientTape() as tape:
        per_example = loss_object(y, model(x, training=True))
        loss = tf.reduce_sum(per_example) * (1.0 / GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_step(x, y, finetune=False):
    fn = finetune_step if finetune else train_step
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(fn, args=(x, y)), axis=None)


for x, y in dist:
    distributed_step(x, y)
