"""Custom loop with tf.train.CheckpointManager (tensorflow/docs guide/checkpoint + distribute/custom_training);
the global step variable is made with the other bookkeeping at the top of the file."""
import os

import tensorflow as tf

MODEL_DIR = os.environ.get("MODEL_DIR", "/tmp/run")
global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")  # expect: MG105

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 16 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.applications.MobileNetV2(weights=None, classes=5, input_shape=(96, 96, 3))
    optimizer = tf.keras.optimizers.Adam(1e-3)
    train_loss = tf.keras.metrics.Mean(name="train_loss")
    ckpt = tf.train.Checkpoint(model=model, optimizer=optimizer, step=global_step)
manager = tf.train.CheckpointManager(ckpt, MODEL_DIR, max_to_keep=3)
ckpt.restore(manager.latest_checkpoint)

images = tf.random.uniform([512, 96, 96, 3])
labels = tf.random.uniform([512], maxval=5, dtype=tf.int32)
ds = tf.data.Dataset.from_tensor_slices((images, labels)).batch(GLOBAL_BATCH_SIZE)
dist_ds = strategy.experimental_distribute_dataset(ds)
ce = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)


def replica_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(ce(y, model(x, training=True)), global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    train_loss.update_state(loss)
    global_step.assign_add(1)


@tf.function
def distributed_step(x, y):
    strategy.run(replica_step, args=(x, y))


for epoch in range(3):
    train_loss.reset_state()
    for x, y in dist_ds:
        distributed_step(x, y)
    manager.save(checkpoint_number=global_step)
    print(epoch, train_loss.result().numpy())
