"""Custom loop driven by iter()/next() over a distributed dataset (tensorflow/docs custom_training,
"Iterating inside a tf.function" section); the optimizer is made in a settings block before the scope."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
print("replicas:", strategy.num_replicas_in_sync)

# --- settings ---
LEARNING_RATE = 3e-4
STEPS_PER_EPOCH = 200
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync
lr_schedule = tf.keras.optimizers.schedules.CosineDecay(LEARNING_RATE, decay_steps=10 * STEPS_PER_EPOCH)
optimizer = tf.keras.optimizers.AdamW(learning_rate=lr_schedule, weight_decay=1e-4)  # expect: MG103

features = tf.random.normal([8192, 20])
targets = tf.random.uniform([8192], maxval=2, dtype=tf.int32)
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).repeat().batch(GLOBAL_BATCH)
dist_dataset = strategy.experimental_distribute_dataset(dataset)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(2)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def step_fn(batch):
    x, y = batch
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.nn.compute_average_loss(loss_fn(y, logits), global_batch_size=GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_steps(iterator, steps):
    for _ in tf.range(steps):
        strategy.run(step_fn, args=(next(iterator),))


iterator = iter(dist_dataset)
for epoch in range(5):
    train_steps(iterator, tf.constant(STEPS_PER_EPOCH))
    print("epoch", epoch, "done")
