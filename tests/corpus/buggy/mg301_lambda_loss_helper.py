"""Quick experiment script: the loss is a module-level lambda (a habit from numpy/JAX notebooks),
called in the replica function of a distributed custom loop."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 256 * strategy.num_replicas_in_sync
EPOCHS = 20

mse_loss = lambda y_true, y_pred: tf.reduce_mean(tf.square(y_true - y_pred))  # expect: MG301

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.Input((13,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    train_mae = tf.keras.metrics.MeanAbsoluteError()


def replica_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = mse_loss(y, pred)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_mae.update_state(y, pred)
    return loss


@tf.function
def train_step(x, y):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_step, args=(x, y)), axis=None)


(x_train, y_train), _ = tf.keras.datasets.boston_housing.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train.astype("float32"), y_train.astype("float32")[:, None]))
dist_ds = strategy.experimental_distribute_dataset(ds.shuffle(512).batch(GLOBAL_BATCH_SIZE))
for epoch in range(EPOCHS):
    train_mae.reset_state()
    for x, y in dist_ds:
        train_step(x, y)
    print(epoch, train_mae.result().numpy())
