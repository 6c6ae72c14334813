"""tensorflow/docs distribute/input `distribute_datasets_from_function` example, with the batch size
copied into a local name before batching."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 512


def make_dataset(input_context):
    batch_size = GLOBAL_BATCH_SIZE
    dataset = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(64)
    dataset = dataset.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
    dataset = dataset.batch(batch_size)  # expect: MG202
    return dataset.prefetch(2)


dist_dataset = strategy.distribute_datasets_from_function(make_dataset)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def train_step(iterator):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.square(y - model(x, training=True))[:, 0]
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss
    return strategy.run(step_fn, args=next(iterator))


iterator = iter(dist_dataset)
for _ in range(10):
    train_step(iterator)
