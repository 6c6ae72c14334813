"""Resume-training script with a short alias for the Keras 3 loader and argparse config."""
import argparse

import keras
import tensorflow as tf
from keras.saving import load_model as kload


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--checkpoint", required=True)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--per_replica_batch", type=int, default=64)
    return p.parse_args()


def main():
    args = parse()
    strategy = tf.distribute.MirroredStrategy()
    batch = args.per_replica_batch * strategy.num_replicas_in_sync
    (x, y), _ = keras.datasets.cifar100.load_data()
    ds = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(50_000).batch(batch)

    model = kload(args.checkpoint)  # expect: MG104
    with strategy.scope():
        model.compile(
            optimizer=keras.optimizers.SGD(0.01, momentum=0.9),
            loss="sparse_categorical_crossentropy",
            metrics=["accuracy"],
        )
    model.fit(ds, epochs=args.epochs)
    model.save(args.checkpoint.replace(".keras", "-resumed.keras"))


if __name__ == "__main__":
    main()
