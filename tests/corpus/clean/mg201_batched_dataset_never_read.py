"""No finding: a batched dataset nothing reads, in a file that trains on another one.

Source shape: tensorflow/tpu tools/colab custom_training (red-team round 3): the test dataset
is batched with a literal but the test iterator is built from the train dataset, so the batched
test dataset never reaches the strategy (issue 17: batches of datasets never used are not
global batches). The train batch is scaled.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 32 * strategy.num_replicas_in_sync

train_dataset = tf.data.Dataset.range(256).map(lambda i: (tf.ones((4,)), tf.zeros((1,))))
train_dataset = train_dataset.batch(BATCH_SIZE, drop_remainder=True)
test_dataset = tf.data.Dataset.range(64).map(lambda i: (tf.ones((4,)), tf.zeros((1,)))).batch(32)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            per_example = tf.reduce_sum(tf.square(model(x) - y), axis=-1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=BATCH_SIZE)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

    strategy.run(step_fn, args=(next(iterator),))


train_iterator = iter(strategy.experimental_distribute_dataset(train_dataset))
test_iterator = iter(strategy.experimental_distribute_dataset(train_dataset))
for _ in range(4):
    train_step(train_iterator)
