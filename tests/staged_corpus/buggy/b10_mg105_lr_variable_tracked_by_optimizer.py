"""MG105 (invalid): a learning-rate `tf.Variable` made outside the scope and tracked by the strategy's optimizer.

Style: TF2 ports of TF1 training scripts that keep a manual learning-rate variable
(`lr = tf.Variable(1e-3, trainable=False)`, then `lr.assign(lr * 0.5)` on plateau,
`optimizer = tf.keras.optimizers.Adam(learning_rate=lr)`), as in many public
"train_ctl.py" files, plus a replica step written as a `tf.function` given to
`strategy.run`. The variable is created outside and becomes part of the
optimizer's state: MG105 where it is created.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 128 * strategy.num_replicas_in_sync

learning_rate = tf.Variable(1e-3, trainable=False, dtype=tf.float32, name="lr")  # expect: MG105

with strategy.scope():
    model = tf.keras.applications.MobileNetV3Small(weights=None, input_shape=(96, 96, 3), classes=10)
    optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)

dataset = tf.data.Dataset.load("stl10_96").shuffle(5000).batch(GLOBAL_BATCH)
dist_dataset = strategy.experimental_distribute_dataset(dataset)


@tf.function
def replica_step(images, labels):
    with tf.GradientTape() as tape:
        per_example = loss_object(labels, model(images, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


best, waited = float("inf"), 0
for epoch in range(50):
    total = 0.0
    for images, labels in dist_dataset:
        total += float(strategy.reduce("SUM", strategy.run(replica_step, args=(images, labels)), axis=None))
    if total < best:
        best, waited = total, 0
    else:
        waited += 1
    if waited >= 3:
        learning_rate.assign(learning_rate * 0.5)
        waited = 0
