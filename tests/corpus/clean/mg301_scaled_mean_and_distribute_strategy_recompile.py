"""Two habits from older tensorflow/models and keras-io code, both correct: a per-replica mean divided by
the replica count on its own line before the gradient, and a fine-tune callback that re-enters the model's
own strategy (`self.model.distribute_strategy.scope()`) to recompile."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(32, activation="relu"),
                                 tf.keras.layers.Dense(4)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    warmup_optimizer = tf.keras.optimizers.SGD(0.01)
    ce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def warmup_replica_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(ce(y, model(x, training=True)))
        loss /= strategy.num_replicas_in_sync
    warmup_optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def warmup_step(x, y):
    return strategy.reduce("SUM", strategy.run(warmup_replica_step, args=(x, y)), axis=None)


class LowerLearningRateRecompile(tf.keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 5:
            with self.model.distribute_strategy.scope():
                self.model.compile(optimizer=tf.keras.optimizers.Adam(1e-5),
                                   loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))


x = tf.random.normal([4096, 16])
y = tf.random.uniform([4096], maxval=4, dtype=tf.int32)
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH, drop_remainder=True)
for xb, yb in strategy.experimental_distribute_dataset(ds.take(10)):
    warmup_step(xb, yb)
model.fit(ds, epochs=10, callbacks=[LowerLearningRateRecompile()])
