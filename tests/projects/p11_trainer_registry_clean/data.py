import tensorflow as tf


def make_dataset(strategy, batch_size_per_replica=64, seq_len=128):
    tokens = tf.data.Dataset.range(100_000)
    sequences = tokens.batch(seq_len + 1, drop_remainder=True)
    pairs = sequences.map(lambda s: (s[:-1], s[1:]))
    return pairs.shuffle(1000).batch(batch_size_per_replica * strategy.num_replicas_in_sync)


def image_pipeline(images, labels, global_batch):
    from registry import augmenter

    aug = augmenter()
    ds = tf.data.Dataset.from_tensor_slices((images, labels)).batch(global_batch)
    return ds.map(lambda x, y: (aug(x, training=True), y))
