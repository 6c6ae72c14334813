"""tensorflow/docs parameter_server_training custom loop whose dataset_fn batches `GLOBAL_BATCH_SIZE = 64`.

Was buggy/r_b10 (MG202 on the batch). Issue 17: a batch role comes from the value, never the
name; 64 is a constant that nothing divides, multiplies by the replicas or hands on as the
global batch, so inside a per-replica input function it may well be the per-replica size.
"""
import os

import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
variable_partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(
    min_shard_bytes=(256 << 10), max_shards=2
)
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver, variable_partitioner=variable_partitioner)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)

GLOBAL_BATCH_SIZE = 64


def dataset_fn(input_context):
    x = tf.random.uniform((10, 10))
    y = tf.random.uniform((10,))
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10).repeat()
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    dataset = dataset.batch(GLOBAL_BATCH_SIZE)
    return dataset.prefetch(2)


@tf.function
def per_worker_dataset_fn():
    return strategy.distribute_datasets_from_function(dataset_fn)


with strategy.scope():
    model = tf.keras.models.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.legacy.RMSprop(learning_rate=0.1)
    accuracy = tf.keras.metrics.Accuracy()


@tf.function
def step_fn(iterator):
    def replica_fn(batch_data, labels):
        with tf.GradientTape() as tape:
            pred = model(batch_data, training=True)
            per_example_loss = tf.keras.losses.BinaryCrossentropy(reduction=tf.keras.losses.Reduction.NONE)(labels, pred)
            loss = tf.nn.compute_average_loss(per_example_loss)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        accuracy.update_state(labels, tf.cast(pred > 0.5, tf.int64))
        return loss

    batch_data, labels = next(iterator)
    losses = strategy.run(replica_fn, args=(batch_data, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


per_worker_dataset = coordinator.create_per_worker_dataset(per_worker_dataset_fn)
per_worker_iterator = iter(per_worker_dataset)
for _ in range(int(os.environ.get("NUM_EPOCHS", "4"))):
    accuracy.reset_states()
    for _ in range(20):
        coordinator.schedule(step_fn, args=(per_worker_iterator,))
    coordinator.join()
    print("Finished epoch, accuracy is %f." % accuracy.result().numpy())
