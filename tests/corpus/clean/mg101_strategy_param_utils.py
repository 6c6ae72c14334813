"""Small helpers shared by the training scripts; the strategy is always the caller's."""
import tensorflow as tf


def replicas(strategy):
    return strategy.num_replicas_in_sync if strategy is not None else 1


def global_batch(strategy, per_replica):
    return per_replica * replicas(strategy)


def distribute(strategy, dataset):
    if strategy is None:
        return dataset
    return strategy.experimental_distribute_dataset(dataset)


def build_in_scope(strategy, factory, *args, **kwargs):
    with strategy.scope():
        return factory(*args, **kwargs)


def reduce_mean_over_replicas(strategy, per_replica_values):
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_values, axis=None)


def make_checkpoint(strategy, model, optimizer, directory):
    with strategy.scope():
        step = tf.Variable(0, dtype=tf.int64, trainable=False)
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer, step=step)
    return tf.train.CheckpointManager(ckpt, directory, max_to_keep=3)
