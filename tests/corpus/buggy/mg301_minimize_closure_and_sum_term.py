"""TF1 port to TF2 tf.distribute: optimizer.minimize with a closure; the loss is a mean plus regularisation."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
PER_REPLICA = 256
GLOBAL = PER_REPLICA * strategy.num_replicas_in_sync

with strategy.scope():
    wide_deep = tf.keras.Sequential([
        tf.keras.layers.Dense(256, activation="relu", kernel_regularizer=tf.keras.regularizers.l2(1e-5)),
        tf.keras.layers.Dense(1),
    ])
    optimizer = tf.keras.optimizers.Ftrl(0.01)
    auc = tf.keras.metrics.AUC()


def replica_fn(features, labels):
    def loss_fn():
        logits = wide_deep(features, training=True)
        xent = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
        return tf.reduce_mean(xent) + tf.add_n(wide_deep.losses)  # expect: MG301

    optimizer.minimize(loss_fn, var_list=wide_deep.trainable_variables)
    auc.update_state(labels, tf.sigmoid(wide_deep(features, training=False)))


@tf.function
def train_step(dist_inputs):
    features, labels = dist_inputs
    strategy.run(replica_fn, args=(features, labels))


def input_fn():
    features = tf.random.normal((100_000, 64))
    labels = tf.cast(tf.random.uniform((100_000, 1)) > 0.5, tf.float32)
    return tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(10_000).batch(GLOBAL, drop_remainder=True)


for epoch in range(3):
    for batch in strategy.experimental_distribute_dataset(input_fn()):
        train_step(batch)
    print("epoch", epoch, "auc", float(auc.result()))
    auc.reset_state()
