"""Shape of tensorflow/docs parameter_server_training (custom loop with ClusterCoordinator): the
coordinator is the only process that runs this program, so its one save is right; Keras 3 is
fine here because nothing calls fit()."""
import keras
import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
GLOBAL_BATCH_SIZE = 64


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(GLOBAL_BATCH_SIZE)
    ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(10).repeat()
    ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    return ds.batch(batch_size).prefetch(2)


with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.1)


@tf.function
def step_fn(iterator):
    def replica_fn(batch):
        x, y = batch
        with tf.GradientTape() as tape:
            per_example = keras.losses.mean_squared_error(y, model(x, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_fn, args=(next(iterator),)), axis=None)


per_worker_dataset = coordinator.create_per_worker_dataset(strategy.distribute_datasets_from_function(dataset_fn))
per_worker_iterator = iter(per_worker_dataset)
for _ in range(100):
    coordinator.schedule(step_fn, args=(per_worker_iterator,))
coordinator.join()
model.save("/shared/ps_model.keras")
