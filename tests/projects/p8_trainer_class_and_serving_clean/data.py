import tensorflow as tf

from configs import NUM_FEATURES


def _synthetic():
    x = tf.random.normal((4096, NUM_FEATURES))
    y = tf.cast(tf.reduce_sum(x, axis=1) > 0, tf.int32)
    return tf.data.Dataset.from_tensor_slices((x, y))


def per_replica_input_fn(global_batch_size):
    def dataset_fn(input_context):
        batch = input_context.get_per_replica_batch_size(global_batch_size)
        ds = _synthetic().shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        return ds.shuffle(1024).repeat().batch(batch).prefetch(2)
    return dataset_fn


def scaled_dataset(strategy, per_replica):
    return _synthetic().batch(per_replica * strategy.num_replicas_in_sync)
