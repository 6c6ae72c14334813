"""distribute/input guide shorthand: a lambda input function that batches the global size."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 16 * strategy.num_replicas_in_sync


def make_base_dataset(input_context):
    ds = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(1024)
    return ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)


dist_dataset = strategy.distribute_datasets_from_function(
    lambda ctx: make_base_dataset(ctx).batch(GLOBAL_BATCH_SIZE).prefetch(2)  # expect: MG202
)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    optimizer = tf.keras.optimizers.SGD(0.01)


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        per_example = tf.keras.losses.mean_squared_error(labels, model(features, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_step(inputs):
    return strategy.reduce("SUM", strategy.run(train_step, args=(inputs,)), axis=None)


for step, batch in enumerate(dist_dataset):
    if step >= 50:
        break
    print(step, float(distributed_step(batch)))
