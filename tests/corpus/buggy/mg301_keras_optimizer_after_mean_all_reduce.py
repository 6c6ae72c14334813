"""MG301: the Sonnet example's hand-written mean all-reduce (google-deepmind/sonnet
examples/distributed_cifar10.ipynb), ported to a Keras optimizer under a MirroredStrategy.

A Keras optimizer sums the replicas' gradients inside strategy.run itself, so the mean-reduced gradients
are summed again: measured (Keras 3.15, TF 2.21, 2 logical CPUs, one Dense(1) weight = 1, MSE, SGD(1.0),
global batch 8): -3.0 after one step with or without the all_reduce("mean"), -1.0 on one device.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)


def step(images, labels):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = tf.reduce_mean(  # expect: MG301
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    replica_ctx = tf.distribute.get_replica_context()
    grads = replica_ctx.all_reduce("mean", grads)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_step(images, labels):
    per_replica_loss = strategy.run(step, args=(images, labels))
    return strategy.reduce("sum", per_replica_loss, axis=None)
