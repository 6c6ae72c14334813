from tensorflow.distribute import MirroredStrategy as MS
from tensorflow.keras import Sequential, layers, losses, optimizers
import tensorflow as tf

dist = MS(cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
PER_REPLICA = 32
GLOBAL = PER_REPLICA * dist.num_replicas_in_sync

with dist.scope():
    net = Sequential([
        layers.Embedding(10_000, 64),
        layers.GRU(64),
        layers.Dense(1),
    ])
    net.compile(optimizer=optimizers.Nadam(2e-3), loss=losses.BinaryCrossentropy(from_logits=True),
                metrics=["accuracy"])

train = tf.data.Dataset.load("imdb_ids").padded_batch(GLOBAL)
net.fit(train, epochs=4)
net.evaluate(tf.data.Dataset.load("imdb_ids_test").padded_batch(GLOBAL))
