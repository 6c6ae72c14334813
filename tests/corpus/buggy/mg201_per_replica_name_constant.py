"""MG201 (not MG202): a constant called per-replica, batched where the strategy splits it.

Source shape: coolerking/fugaku_sample `mnist_dist_tf.py` (the tensorflow/docs distribute/keras
tutorial: `BATCH_SIZE_PER_REPLICA = 64`, `BATCH_SIZE = BATCH_SIZE_PER_REPLICA *
strategy.num_replicas_in_sync`) with the evaluation batched by the per-replica constant.
64 is a constant; its name does not make it per replica, so the finding is an unscaled
global batch, with MG201's fix.
"""
import tensorflow as tf
import tensorflow_datasets as tfds

datasets, info = tfds.load(name="mnist", with_info=True, as_supervised=True)
mnist_train, mnist_test = datasets["train"], datasets["test"]

strategy = tf.distribute.MirroredStrategy()

BUFFER_SIZE = 10000
BATCH_SIZE_PER_REPLICA = 64
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync


def scale(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE_PER_REPLICA)  # expect: MG201

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(10),
    ])
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])

model.fit(train_dataset, epochs=12)
model.evaluate(eval_dataset)
