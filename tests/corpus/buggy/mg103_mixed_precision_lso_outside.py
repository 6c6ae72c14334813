"""Mixed-precision custom loop (tensorflow/docs guide/mixed_precision "Training the model with a custom
training loop") moved onto a MirroredStrategy; the wrapped optimizer is made in a helper at module level."""
import tensorflow as tf
from tensorflow.keras import mixed_precision

mixed_precision.set_global_policy("mixed_float16")
strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 256 * strategy.num_replicas_in_sync


def make_optimizer(lr):
    return mixed_precision.LossScaleOptimizer(tf.keras.optimizers.RMSprop(lr))


optimizer = make_optimizer(1e-3)  # expect: MG103

with strategy.scope():
    inputs = tf.keras.Input(shape=(784,))
    x = tf.keras.layers.Dense(4096, activation="relu")(inputs)
    x = tf.keras.layers.Dense(10)(x)
    outputs = tf.keras.layers.Activation("softmax", dtype="float32")(x)
    model = tf.keras.Model(inputs, outputs)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
x_train = x_train.reshape(60000, 784).astype("float32") / 255
train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(10000).batch(GLOBAL_BATCH_SIZE)


@tf.function
def train_step(dist_batch):
    def step(x, y):
        with tf.GradientTape() as tape:
            predictions = model(x)
            loss = tf.nn.compute_average_loss(loss_object(y, predictions), global_batch_size=GLOBAL_BATCH_SIZE)
            scaled_loss = optimizer.scale_loss(loss)
        grads = tape.gradient(scaled_loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    per_replica = strategy.run(step, args=dist_batch)
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


for epoch in range(5):
    for batch in strategy.experimental_distribute_dataset(train_ds):
        loss = train_step(batch)
    print(epoch, loss.numpy())
