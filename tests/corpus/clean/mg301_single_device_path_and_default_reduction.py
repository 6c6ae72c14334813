"""MG301 (valid): a plain mean in the single-device branch; a default-reduction loss object in the replica step.

Style: scripts that keep a one-GPU code path (`strategy = MirroredStrategy() if
len(gpus) > 1 else None`, then `if strategy is None:` a plain `tf.function` step
that is never given to `strategy.run`) beside the distributed one, and the Keras-3
habit of calling a `keras.losses` object with its default reduction inside the
replica function (measured: Keras 3 scales it per replica correctly; it is not a
plain mean of per-example losses).
"""
import keras
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
strategy = tf.distribute.MirroredStrategy() if len(gpus) > 1 else None
x_all, y_all = tf.random.normal((1024, 8)), tf.random.normal((1024, 1))


def make_model():
    return keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])


if strategy is None:
    model = make_model()
    optimizer = keras.optimizers.SGD(0.01)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    for x, y in tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(32):
        step(x, y)
else:
    global_batch = 32 * strategy.num_replicas_in_sync
    with strategy.scope():
        model = make_model()
        optimizer = keras.optimizers.SGD(0.01)
        loss_fn = keras.losses.MeanSquaredError()

    def replica_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    dist = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(global_batch))
    for x, y in dist:
        strategy.run(replica_step, args=(x, y))
