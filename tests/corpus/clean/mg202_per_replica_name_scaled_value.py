"""No finding: the name says per replica, the value is the global batch.

Source shape: a seq2seq notebook in the code index (`Batch_size_per_replica = BATCH_SIZE *
strategy.num_replicas_in_sync`, then `.batch(...)` given to `fit`), kept to one
multiplication. A name decides no role: the value is scaled by the replicas, so neither
MG201 nor MG202 applies.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64
Batch_size_per_replica = BATCH_SIZE * strategy.num_replicas_in_sync

(x, y), _ = tf.keras.datasets.mnist.load_data()
train_dataset = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(1000).batch(Batch_size_per_replica)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(train_dataset, epochs=2)
