"""Transformer translation custom loop on GPUs: masked per-token loss made per example, then scaled globally."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
MAX_TOKENS = 128
BATCH_PER_REPLICA = 32
GLOBAL_BATCH = BATCH_PER_REPLICA * strategy.num_replicas_in_sync
VOCAB = 8000

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(VOCAB, 256),
        tf.keras.layers.LSTM(256, return_sequences=True),
        tf.keras.layers.Dense(VOCAB),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-3, beta_1=0.9, beta_2=0.98, epsilon=1e-9)
    train_accuracy = tf.keras.metrics.Mean(name="train_accuracy")
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def masked_per_example_loss(label, pred):
    mask = tf.cast(label != 0, tf.float32)
    per_token = loss_object(label, pred) * mask
    return tf.reduce_sum(per_token, axis=1) / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)


def masked_accuracy(label, pred):
    match = tf.cast(tf.argmax(pred, axis=2), label.dtype) == label
    mask = label != 0
    return tf.reduce_mean(tf.cast(match & mask, tf.float32))


def train_step(inputs, labels):
    with tf.GradientTape() as tape:
        predictions = model(inputs, training=True)
        per_example = masked_per_example_loss(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(masked_accuracy(labels, predictions))
    return loss


@tf.function
def distributed_train_step(inputs, labels):
    per_replica_losses = strategy.run(train_step, args=(inputs, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


@tf.function
def host_validation_loss(inputs, labels):
    predictions = model(inputs, training=False)
    return tf.reduce_mean(masked_per_example_loss(labels, predictions))


tokens = tf.random.uniform((4096, MAX_TOKENS), maxval=VOCAB, dtype=tf.int64)
train_batches = tf.data.Dataset.from_tensor_slices((tokens[:, :-1], tokens[:, 1:])).batch(GLOBAL_BATCH)
val_inputs, val_labels = tokens[:256, :-1], tokens[:256, 1:]
for epoch in range(20):
    for inputs, labels in strategy.experimental_distribute_dataset(train_batches):
        distributed_train_step(inputs, labels)
    print(epoch, float(host_validation_loss(val_inputs, val_labels)), float(train_accuracy.result()))
    train_accuracy.reset_state()
