"""Shape 9.7 / MG103 widened (invalid): optimizer and metric made outside, passed as arguments into the step.

Style: refactored tensorflow/docs custom_training code where the step takes its
collaborators as arguments (`distributed_train_step(strategy, inputs, model,
optimizer, train_accuracy, ...)`), as in many public "utils/train.py" files.
The model is built in the scope; the optimizer and the accuracy metric are made
outside and handed to `strategy.run(..., args=(...))`: MG103 at each creation.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 64 * strategy.num_replicas_in_sync

(x, y), _ = tf.keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(50_000).batch(GLOBAL_BATCH_SIZE)
dist_ds = strategy.experimental_distribute_dataset(train_ds)

with strategy.scope():
    model = tf.keras.applications.ResNet50V2(weights=None, input_shape=(32, 32, 3), classes=10)

optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)  # expect: MG103
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")  # expect: MG103
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction=tf.keras.losses.Reduction.NONE)


def train_step(inputs, model, optimizer, metric):
    images, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        per_example = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    metric.update_state(labels, predictions)
    return loss


@tf.function
def distributed_train_step(inputs, model, optimizer, metric):
    per_replica = strategy.run(train_step, args=(inputs, model, optimizer, metric))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


for epoch in range(10):
    for batch in dist_ds:
        loss = distributed_train_step(batch, model, optimizer, train_accuracy)
    print(epoch, float(loss), float(train_accuracy.result()))
    train_accuracy.reset_state()
