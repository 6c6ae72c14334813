"""Custom loop written with keyword arguments everywhere (style-guide-driven codebases):
`tape.gradient(target=..., sources=...)`, `strategy.run(fn=..., args=...)`."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
PER_REPLICA_BATCH = 32
GLOBAL_BATCH = PER_REPLICA_BATCH * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Embedding(input_dim=20000, output_dim=64),
                                 tf.keras.layers.GlobalAveragePooling1D(),
                                 tf.keras.layers.Dense(units=1)])
    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def replica_fn(token_ids, labels):
    with tf.GradientTape() as tape:
        logits = model(token_ids, training=True)
        loss = tf.math.reduce_mean(bce(y_true=labels, y_pred=logits))  # expect: MG301
    gradients = tape.gradient(target=loss, sources=model.trainable_variables)
    optimizer.apply_gradients(grads_and_vars=zip(gradients, model.trainable_variables))
    return loss


@tf.function
def train_step(token_ids, labels):
    per_replica = strategy.run(fn=replica_fn, args=(token_ids, labels))
    return strategy.reduce(reduce_op=tf.distribute.ReduceOp.SUM, value=per_replica, axis=None)


(x_train, y_train), _ = tf.keras.datasets.imdb.load_data(num_words=20000)
x_train = tf.keras.utils.pad_sequences(x_train, maxlen=200)
ds = tf.data.Dataset.from_tensor_slices((x_train, y_train[:, None].astype("float32")))
for epoch in range(3):
    for token_ids, labels in strategy.experimental_distribute_dataset(ds.shuffle(25000).batch(GLOBAL_BATCH)):
        loss = train_step(token_ids, labels)
    print(epoch, loss.numpy())
