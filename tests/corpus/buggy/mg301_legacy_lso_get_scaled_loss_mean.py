"""tf-keras 2.4-2.10 mixed-precision guide custom loop (`get_scaled_loss` / `get_unscaled_gradients`)
run under a MirroredStrategy: the loss fed to the loss scaler is a plain per-replica mean."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
tf.keras.mixed_precision.set_global_policy("mixed_float16")
GLOBAL_BATCH_SIZE = 128 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.Input((784,)),
        tf.keras.layers.Dense(4096, activation="relu"),
        tf.keras.layers.Dense(10),
        tf.keras.layers.Activation("softmax", dtype="float32"),
    ])
    optimizer = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.RMSprop())
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)


def train_step(x, y):
    with tf.GradientTape() as tape:
        predictions = model(x)
        loss = tf.reduce_mean(loss_object(y, predictions))  # expect: MG301
        scaled_loss = optimizer.get_scaled_loss(loss)
    scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
    gradients = optimizer.get_unscaled_gradients(scaled_gradients)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(x, y):
    per_replica_losses = strategy.run(train_step, args=(x, y))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
x_train = x_train.reshape(60000, 784).astype("float32") / 255
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(10000).batch(GLOBAL_BATCH_SIZE)
for epoch in range(5):
    for x, y in strategy.experimental_distribute_dataset(train_dataset):
        loss = distributed_train_step(x, y)
    print("epoch", epoch, "loss", loss.numpy())
