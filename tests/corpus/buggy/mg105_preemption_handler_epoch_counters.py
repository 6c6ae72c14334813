"""Fault-tolerant MWMS custom loop in the shape TensorFlow documents for
tf.distribute.experimental.PreemptionCheckpointHandler: `trained_epoch`/`step_in_epoch` counters made
before the scope, updated only by the host loop, tracked by the checkpoint made in the scope."""
import json
import os

import tensorflow as tf

per_worker_batch_size = 64
tf_config = json.loads(os.environ["TF_CONFIG"])
num_workers = len(tf_config["cluster"]["worker"])
global_batch_size = per_worker_batch_size * num_workers
num_epochs, num_steps_per_epoch = 3, 70

strategy = tf.distribute.MultiWorkerMirroredStrategy()
epoch = tf.Variable(initial_value=tf.constant(0, dtype=tf.dtypes.int64), name="epoch")  # expect: MG105
step_in_epoch = tf.Variable(initial_value=tf.constant(0, dtype=tf.dtypes.int64), name="step_in_epoch")  # expect: MG105

with strategy.scope():
    multi_worker_model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    checkpoint = tf.train.Checkpoint(model=multi_worker_model, optimizer=optimizer,
                                     trained_epoch=epoch, step_in_epoch=step_in_epoch)
    preemption_handler = tf.distribute.experimental.PreemptionCheckpointHandler(
        strategy.cluster_resolver, checkpoint, "/tmp/ckpt")


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    x = tf.random.uniform([6000, 28, 28])
    y = tf.random.uniform([6000], maxval=10, dtype=tf.int64)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shard(input_context.num_input_pipelines,
                                                         input_context.input_pipeline_id)
    return ds.shuffle(6000).repeat().batch(batch_size)


per_worker_iterator = iter(strategy.distribute_datasets_from_function(dataset_fn))


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            predictions = multi_worker_model(x, training=True)
            per_example_loss = tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True, reduction=tf.keras.losses.Reduction.NONE)(y, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
        grads = tape.gradient(loss, multi_worker_model.trainable_variables)
        optimizer.apply_gradients(zip(grads, multi_worker_model.trainable_variables))
        train_accuracy.update_state(y, predictions)
        return loss
    per_replica_losses = strategy.run(step_fn, args=(next(iterator),))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


while epoch.numpy() < num_epochs:
    total_loss, num_batches = 0.0, 0
    while step_in_epoch.numpy() < num_steps_per_epoch:
        total_loss += preemption_handler.run(train_step, args=(per_worker_iterator,))
        num_batches += 1
        step_in_epoch.assign_add(1)
    train_accuracy.reset_state()
    epoch.assign_add(1)
    step_in_epoch.assign(0)
