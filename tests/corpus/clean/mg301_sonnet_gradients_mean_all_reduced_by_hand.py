"""MG301 false alarm (red team round 5): a per-replica mean loss whose gradients are all-reduced with
"mean" by hand and applied by a Sonnet optimizer, which does not sum the replicas' gradients again.

Source: google-deepmind/sonnet examples/distributed_cifar10.ipynb (cells 8-11): snt.distribute.Replicator,
`tf.reduce_mean` of the cross-entropy in the replica step, `replica_ctx.all_reduce("mean", grads)`,
`optimizer.apply(grads, model.trainable_variables)` with `snt.optimizers.Momentum`. The update is the
mean over the global batch.
"""
import sonnet as snt
import tensorflow as tf

strategy = snt.distribute.Replicator(
    ["/device:GPU:{}".format(i) for i in range(2)],
    tf.distribute.ReductionToOneDevice("GPU:0"))

with strategy.scope():
    model = snt.nets.MLP([64, 10])
    optimizer = snt.optimizers.Momentum(0.1, 0.9)


def step(images, labels):
    with tf.GradientTape() as tape:
        logits = model(images)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    replica_ctx = tf.distribute.get_replica_context()
    grads = replica_ctx.all_reduce("mean", grads)
    optimizer.apply(grads, model.trainable_variables)
    return loss


@tf.function
def train_step(images, labels):
    per_replica_loss = strategy.run(step, args=(images, labels))
    return strategy.reduce("sum", per_replica_loss, axis=None)
