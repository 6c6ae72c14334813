"""Custom loop that wraps the replica function with tf.function at the strategy.run call; loss is a plain mean."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 256 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(20,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-3)


def step_fn(features, targets):
    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        loss = tf.reduce_mean(tf.square(targets - predictions))  # expect: MG301
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


compiled_step = tf.function(step_fn)


def train_epoch(dist_dataset):
    total = 0.0
    for features, targets in dist_dataset:
        per_replica = strategy.run(compiled_step, args=(features, targets))
        total += float(strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None))
    return total


features = tf.random.normal((50_000, 20))
targets = tf.reduce_sum(features, axis=1, keepdims=True)
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).shuffle(50_000).batch(GLOBAL_BATCH)
for epoch in range(5):
    print(epoch, train_epoch(strategy.experimental_distribute_dataset(dataset)))
