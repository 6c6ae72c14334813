"""MG105 (invalid): a `tf.Variable` step counter made outside the scope, updated in the replica function.

Style: tensorflow/docs site/en/tutorials/distribute/custom_training.ipynb with a
global step added the TF1 way (`global_step = tf.Variable(0, trainable=False)`),
as many ported repositories do. Measured: on 2 replicas it reads 8 after 4 steps.
Reported where the variable is created.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

(train_images, train_labels), _ = tf.keras.datasets.fashion_mnist.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((train_images[..., None] / 255.0, train_labels))
train_dist = strategy.experimental_distribute_dataset(train_ds.shuffle(60_000).batch(GLOBAL_BATCH_SIZE))

global_step = tf.Variable(0, trainable=False, dtype=tf.int64, name="global_step")  # expect: MG105

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3, activation="relu"), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True,
                                                                reduction=tf.keras.losses.Reduction.NONE)


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = tf.nn.compute_average_loss(loss_object(labels, logits), global_batch_size=GLOBAL_BATCH_SIZE)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    global_step.assign_add(1)
    return loss


@tf.function
def distributed_train_step(batch):
    losses = strategy.run(train_step, args=(batch,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


for epoch in range(5):
    for batch in train_dist:
        loss = distributed_train_step(batch)
        if int(global_step) % 100 == 0:
            print("step", int(global_step), "loss", float(loss))
