"""Shape 9.7 (valid): the same travelling values, made right.

Style: the imbalanced-data tutorial's `make_model(metrics=METRICS)` factory with
the metric list built by a function called inside the scope, a loader class
whose batch attribute is derived from the replica count, a helper given the
global batch at its call site, and `strategy.run(step, args=(...))` with
objects created inside the scope.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras


def default_metrics():
    return [keras.metrics.Precision(name="precision"), keras.metrics.Recall(name="recall"),
            keras.metrics.AUC(name="auc")]


def make_model(n_features, metrics=None):
    model = keras.Sequential([keras.layers.Dense(16, activation="relu", input_shape=(n_features,)),
                              keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy",
                  metrics=metrics if metrics is not None else default_metrics())
    return model


class Loader:
    def __init__(self, x, y, strategy, per_replica=64):
        self.x, self.y = x, y
        self.batch_size = per_replica * strategy.num_replicas_in_sync

    def dataset(self):
        return tf.data.Dataset.from_tensor_slices((self.x, self.y)).shuffle(len(self.x)).batch(self.batch_size)


def make_dataset(x, y, batch_size):
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size)


strategy = tf.distribute.MirroredStrategy()
x = np.random.rand(4096, 30).astype("float32")
y = (np.random.rand(4096) > 0.98).astype("float32")

with strategy.scope():
    model = make_model(30)
    optimizer = keras.optimizers.SGD(0.01)
    loss_metric = keras.metrics.Mean(name="loss")

model.fit(Loader(x, y, strategy).dataset(), epochs=3)
model.fit(make_dataset(x, y, 128 * strategy.num_replicas_in_sync), epochs=1)


def replica_step(features, labels, model, optimizer, metric):
    with tf.GradientTape() as tape:
        per_example = keras.losses.binary_crossentropy(labels[:, None], model(features, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=256 * strategy.num_replicas_in_sync)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    metric.update_state(loss)


dist = strategy.experimental_distribute_dataset(make_dataset(x, y, 256 * strategy.num_replicas_in_sync))
for features, labels in dist:
    strategy.run(replica_step, args=(features, labels, model, optimizer, loss_metric))
