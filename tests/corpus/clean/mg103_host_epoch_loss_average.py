"""TF "custom training walkthrough" (iris) on MirroredStrategy: host-side epoch averages kept in Mean metrics."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync
column_names = ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"]

train_dataset = tf.data.experimental.make_csv_dataset(
    "iris_training.csv", GLOBAL_BATCH, column_names=column_names, label_name="species", num_epochs=1)
train_dataset = train_dataset.map(lambda features, labels: (tf.stack(list(features.values()), axis=1), labels))
dist_dataset = strategy.experimental_distribute_dataset(train_dataset)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),
        tf.keras.layers.Dense(10, activation=tf.nn.relu),
        tf.keras.layers.Dense(3),
    ])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()


def replica_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = tf.nn.compute_average_loss(loss_object(y, logits), global_batch_size=GLOBAL_BATCH)
    optimizer.apply_gradients(zip(tape.gradient(loss_value, model.trainable_variables), model.trainable_variables))
    epoch_accuracy.update_state(y, logits)
    return loss_value


@tf.function
def distributed_step(x, y):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(replica_step, args=(x, y)), axis=None)


train_loss_results = []
for epoch in range(201):
    epoch_loss_avg = tf.keras.metrics.Mean()
    for x, y in dist_dataset:
        epoch_loss_avg.update_state(distributed_step(x, y))
    train_loss_results.append(epoch_loss_avg.result())
    if epoch % 50 == 0:
        print("Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(epoch, epoch_loss_avg.result(), epoch_accuracy.result()))
    epoch_accuracy.reset_state()
