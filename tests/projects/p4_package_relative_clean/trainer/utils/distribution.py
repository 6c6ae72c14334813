"""Pick a strategy for the machine we run on."""
import tensorflow as tf


def get_strategy(tpu_address=None):
    if tpu_address:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu_address)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver)
    if len(tf.config.list_physical_devices("GPU")) > 1:
        return tf.distribute.MirroredStrategy()
    return tf.distribute.get_strategy()


def global_batch_size(strategy, per_replica):
    return per_replica * strategy.num_replicas_in_sync
