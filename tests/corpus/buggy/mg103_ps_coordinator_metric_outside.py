"""tensorflow/docs distribute/parameter_server_training, custom training loop section; the accuracy metric
was moved up next to the loss definition."""
import json
import os

import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
variable_partitioner = tf.distribute.experimental.partitioners.MinSizePartitioner(
    min_shard_bytes=256 << 10, max_shards=2)
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver, variable_partitioner=variable_partitioner)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
print(json.loads(os.environ.get("TF_CONFIG", "{}")))

GLOBAL_BATCH_SIZE = 64
accuracy = tf.keras.metrics.Accuracy()  # expect: MG103


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
    x = tf.random.uniform((1000, 10))
    y = tf.cast(tf.reduce_sum(x, axis=1) > 5.0, tf.int64)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000).repeat()
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.batch(batch_size).prefetch(2)


@tf.function
def per_worker_dataset_fn():
    return strategy.distribute_datasets_from_function(dataset_fn)


per_worker_dataset = coordinator.create_per_worker_dataset(per_worker_dataset_fn)
per_worker_iterator = iter(per_worker_dataset)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.legacy.RMSprop(learning_rate=0.1)


@tf.function
def step_fn(iterator):
    def replica_fn(batch_data, labels):
        with tf.GradientTape() as tape:
            pred = model(batch_data, training=True)
            per_example_loss = tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True, reduction=tf.keras.losses.Reduction.NONE)(labels, pred)
            loss = tf.nn.compute_average_loss(per_example_loss)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        accuracy.update_state(labels, tf.argmax(pred, axis=1))
        return loss

    batch_data, labels = next(iterator)
    losses = strategy.run(replica_fn, args=(batch_data, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


for epoch in range(4):
    accuracy.reset_state()
    for _ in range(20):
        coordinator.schedule(step_fn, args=(per_worker_iterator,))
    coordinator.join()
    print("Finished epoch %d, accuracy is %f." % (epoch, accuracy.result().numpy()))
