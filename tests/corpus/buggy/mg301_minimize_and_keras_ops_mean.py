"""MG301 (invalid): `optimizer.minimize` of a plain mean, and `keras.ops.mean`, in replica functions.

Style: Keras 3 custom loops (keras-io guides/writing_a_custom_training_loop_in_tensorflow.py
uses `keras.ops` and `optimizer.apply`) and TF2 ports of TF1 code that call
`optimizer.minimize(loss_fn, var_list)` with a `tf.reduce_mean` loss closure, run by
`strategy.run` through a `tf.function`. Both average per replica: MG301 at each mean.
"""
import keras
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(32, activation="relu"),
                              keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam(1e-3)
    tf_optimizer = tf.keras.optimizers.SGD(0.1)
    linear = tf.keras.Sequential([tf.keras.Input(shape=(20,)), tf.keras.layers.Dense(1)])

data = tf.data.Dataset.from_tensor_slices((tf.random.normal((8192, 20)), tf.random.normal((8192, 1))))
dist = strategy.experimental_distribute_dataset(data.batch(GLOBAL_BATCH))


def replica_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = keras.ops.mean(keras.ops.square(y - pred))  # expect: MG301
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply(grads, model.trainable_variables)

    def linear_loss():
        return tf.reduce_mean(tf.square(y - linear(x)))  # expect: MG301

    tf_optimizer.minimize(linear_loss, var_list=linear.trainable_variables)
    return loss


@tf.function
def step(x, y):
    return strategy.run(replica_step, args=(x, y))


for x, y in dist:
    step(x, y)
