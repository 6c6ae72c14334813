"""Mixed-precision custom loop on a strategy (tensorflow/docs guide/mixed_precision): the global policy
and a Policy object live outside, the LossScaleOptimizer is made in the scope."""
import tensorflow as tf
from tensorflow.keras import mixed_precision

policy = mixed_precision.Policy("mixed_float16")
mixed_precision.set_global_policy(policy)
strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 128 * strategy.num_replicas_in_sync
initializer = tf.keras.initializers.HeNormal(seed=1)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.Input((512,)),
        tf.keras.layers.Dense(1024, activation="relu", kernel_initializer=initializer),
        tf.keras.layers.Dense(10),
        tf.keras.layers.Activation("linear", dtype="float32"),
    ])
    optimizer = mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(1e-3))
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def step_fn(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.nn.compute_average_loss(loss_object(y, logits), global_batch_size=GLOBAL_BATCH_SIZE)
        scaled_loss = optimizer.scale_loss(loss)
    grads = tape.gradient(scaled_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_step(x, y):
    return strategy.reduce("SUM", strategy.run(step_fn, args=(x, y)), axis=None)


data = tf.data.Dataset.from_tensor_slices((tf.random.normal([4096, 512]),
                                           tf.random.uniform([4096], maxval=10, dtype=tf.int32)))
for x, y in strategy.experimental_distribute_dataset(data.batch(GLOBAL_BATCH_SIZE)):
    print(train_step(x, y).numpy())
