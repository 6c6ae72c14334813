"""MG105 (invalid): a running-loss `tf.Variable` made outside the scope, updated in a `tf.function` replica step.

Style: TF2 ports of TF1 training scripts that keep their own bookkeeping variables
(`smoothed_loss = tf.Variable(0.0, trainable=False)`, updated with `assign` every
step, used for a plateau learning-rate rule), with the replica step written as a
`@tf.function` given to `strategy.run`. Every replica writes the one plain
variable, as with the step counter measured in FACTS.md. MG105 where it is created.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync

smoothed_loss = tf.Variable(0.0, trainable=False, dtype=tf.float32, name="smoothed_loss")  # expect: MG105

with strategy.scope():
    model = tf.keras.applications.MobileNetV3Small(weights=None, input_shape=(96, 96, 3), classes=10)
    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)

dataset = tf.data.Dataset.load("stl10_96").shuffle(5000).batch(GLOBAL_BATCH)
dist_dataset = strategy.experimental_distribute_dataset(dataset)


@tf.function
def replica_step(images, labels):
    with tf.GradientTape() as tape:
        per_example = loss_object(labels, model(images, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    smoothed_loss.assign(0.9 * smoothed_loss + 0.1 * loss)
    return loss


best, waited = float("inf"), 0
for epoch in range(50):
    for images, labels in dist_dataset:
        strategy.run(replica_step, args=(images, labels))
    current = float(smoothed_loss)
    if current < best:
        best, waited = current, 0
    else:
        waited += 1
    if waited >= 3:
        optimizer.learning_rate = optimizer.learning_rate * 0.5
        waited = 0
