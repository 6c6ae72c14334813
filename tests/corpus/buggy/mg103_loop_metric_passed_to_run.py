"""keras-io "training loop from scratch" (Keras 3 ops) wrapped in strategy.run, objects handed in as args."""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
import tensorflow as tf
from keras import ops

strategy = tf.distribute.MirroredStrategy()
batch_size = 64 * strategy.num_replicas_in_sync

loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=None)
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()  # expect: MG103

with strategy.scope():
    inputs = keras.Input(shape=(784,), name="digits")
    x = keras.layers.Dense(64, activation="relu")(inputs)
    outputs = keras.layers.Dense(10, name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    optimizer = keras.optimizers.SGD(learning_rate=1e-3)


def train_step(x, y, metric):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss_value = ops.mean(loss_fn(y, logits))  # expect: MG301
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    metric.update_state(y, logits)
    return loss_value


@tf.function
def distributed_train_step(x, y):
    per_replica = strategy.run(train_step, args=(x, y, train_acc_metric))
    return strategy.reduce("SUM", per_replica, axis=None)


(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(1024).batch(batch_size)
dist_dataset = strategy.experimental_distribute_dataset(train_dataset)

for epoch in range(2):
    for step, (x_batch, y_batch) in enumerate(dist_dataset):
        loss_value = distributed_train_step(x_batch, y_batch)
        if step % 200 == 0:
            print(f"step {step}: loss {float(loss_value):.4f}")
    print(f"Training acc over epoch: {float(train_acc_metric.result()):.4f}")
    train_acc_metric.reset_state()
