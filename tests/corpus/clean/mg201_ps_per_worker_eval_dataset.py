"""No finding: datasets made on each worker by `create_per_worker_dataset`, for training and for evaluation.

Source shape: tensorflow/docs parameter_server_training, "inline evaluation": the coordinator
schedules an eval step over `coordinator.create_per_worker_dataset(eval_dataset_fn)`, whose
function batches a literal 8. Each worker evaluates its own batches; nothing splits them
across replicas, so the literal is not an unscaled global batch (issue 17).
"""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)

feature_data = tf.random.uniform((64, 10))
label_data = tf.cast(tf.random.uniform((64,)) > 0.5, tf.int64)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])
    optimizer = tf.keras.optimizers.legacy.RMSprop(learning_rate=0.1)
    eval_accuracy = tf.keras.metrics.Accuracy()


def train_dataset_fn():
    return tf.data.Dataset.from_tensor_slices((feature_data, label_data)).shuffle(64).repeat().batch(16)


def eval_dataset_fn():
    return tf.data.Dataset.from_tensor_slices((feature_data, label_data)).shuffle(16).repeat().batch(8)


@tf.function
def train_step(iterator):
    def replica_fn(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.keras.losses.binary_crossentropy(tf.cast(y, tf.float32)[:, None], model(x))
            loss = tf.nn.compute_average_loss(per_example)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    x, y = next(iterator)
    return strategy.run(replica_fn, args=(x, y))


@tf.function
def eval_step(iterator):
    def replica_fn(x, y):
        eval_accuracy.update_state(y, tf.cast(model(x) > 0.5, tf.int64)[:, 0])

    x, y = next(iterator)
    strategy.run(replica_fn, args=(x, y))


per_worker_train = iter(coordinator.create_per_worker_dataset(train_dataset_fn))
per_worker_eval = iter(coordinator.create_per_worker_dataset(eval_dataset_fn))
for _ in range(4):
    coordinator.schedule(train_step, args=(per_worker_train,))
for _ in range(4):
    coordinator.schedule(eval_step, args=(per_worker_eval,))
coordinator.join()
print("Evaluation accuracy: %f" % eval_accuracy.result())
