"""Multi-GPU training entry point."""
import os

import tensorflow as tf

from data import load_split
from models import create_backbone, create_model

PER_GPU_BATCH = 32
DATA_DIR = os.environ.get("DATA_DIR", "data/")


def finetune(strategy, train_ds):
    backbone = create_backbone()  # expect: MG101
    with strategy.scope():
        head = tf.keras.Sequential([backbone, tf.keras.layers.Dense(5, activation="softmax")])
        head.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    head.fit(train_ds, epochs=2)


def main():
    strategy = tf.distribute.MirroredStrategy()
    print("Number of devices:", strategy.num_replicas_in_sync)
    batch_size = PER_GPU_BATCH * strategy.num_replicas_in_sync
    train_ds = load_split(os.path.join(DATA_DIR, "train"), batch_size)
    val_ds = load_split(os.path.join(DATA_DIR, "val"), batch_size)

    model = create_model(num_classes=5)  # expect: MG101, MG102
    with strategy.scope():
        checkpoint = tf.train.Checkpoint(model=model)
    model.fit(train_ds, validation_data=val_ds, epochs=20)
    checkpoint.save("/tmp/ckpt/model")
    finetune(strategy, train_ds)


if __name__ == "__main__":
    main()
