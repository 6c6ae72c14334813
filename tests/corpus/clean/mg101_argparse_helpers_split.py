"""Standalone train.py with argparse and helpers split over functions, everything wired in main()."""
import argparse

import tensorflow as tf


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--batch-size", type=int, default=32, help="per replica")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--gpus", type=int, default=0)
    return p.parse_args()


def make_strategy(args):
    if args.gpus > 1:
        return tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(args.gpus)])
    return tf.distribute.get_strategy()


def make_datasets(args, strategy):
    global_batch = args.batch_size * strategy.num_replicas_in_sync
    (x, y), (xt, yt) = tf.keras.datasets.fashion_mnist.load_data()
    train = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(60000).batch(global_batch)
    test = tf.data.Dataset.from_tensor_slices((xt / 255.0, yt)).batch(global_batch)
    return train, test


def make_model():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)),
                                 tf.keras.layers.Dense(256, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy(name="acc")])
    return model


def main():
    args = parse_args()
    strategy = make_strategy(args)
    train, test = make_datasets(args, strategy)
    with strategy.scope():
        model = make_model()
    model.fit(train, epochs=args.epochs, validation_data=test)
    model.evaluate(test)


if __name__ == "__main__":
    main()
