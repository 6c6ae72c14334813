"""Shape 9.1 (valid): the `__main__` guard calls the factory inside `with strategy.scope():`.

Style: tensorflow/models-like standalone trainer (absl-free, argparse) whose
`__main__` block is the program. The factory builds and compiles; it is called
inside the scope in the guard, so nothing is reported (neither at the call nor
inside the factory's body).
"""
import argparse

import tensorflow as tf
from tensorflow import keras


def create_model(hidden_units, learning_rate):
    inputs = keras.Input(shape=(28, 28))
    x = keras.layers.Flatten()(inputs)
    for units in hidden_units:
        x = keras.layers.Dense(units, activation="relu")(x)
    outputs = keras.layers.Dense(10)(x)
    model = keras.Model(inputs, outputs)
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model


def make_datasets(batch_size):
    (x, y), (xt, yt) = keras.datasets.mnist.load_data()
    train = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(60_000).batch(batch_size)
    test = tf.data.Dataset.from_tensor_slices((xt / 255.0, yt)).batch(batch_size)
    return train, test


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--per_replica_batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    train_ds, test_ds = make_datasets(args.per_replica_batch * strategy.num_replicas_in_sync)

    with strategy.scope():
        model = create_model([256, 128], args.lr)

    model.fit(train_ds, validation_data=test_ds, epochs=3)
    model.evaluate(test_ds)
