#!/usr/bin/env python
"""Train a small U-Net for binary segmentation.  Everything runs from main()."""
import argparse

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def conv_block(x, filters):
    x = layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
    return layers.Conv2D(filters, 3, padding="same", activation="relu")(x)


def build_unet(img_size=128):
    inputs = keras.Input(shape=(img_size, img_size, 3))
    c1 = conv_block(inputs, 32)
    p1 = layers.MaxPooling2D()(c1)
    c2 = conv_block(p1, 64)
    p2 = layers.MaxPooling2D()(c2)
    b = conv_block(p2, 128)
    u2 = layers.Concatenate()([layers.UpSampling2D()(b), c2])
    c3 = conv_block(u2, 64)
    u1 = layers.Concatenate()([layers.UpSampling2D()(c3), c1])
    c4 = conv_block(u1, 32)
    outputs = layers.Conv2D(1, 1, activation="sigmoid")(c4)
    return keras.Model(inputs, outputs, name="unet")


def make_dataset(path, batch_size, training):
    ds = tf.data.Dataset.load(path)
    if training:
        ds = ds.shuffle(1000)
    return ds.batch(batch_size).prefetch(tf.data.AUTOTUNE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="/data/oxford_pets")
    parser.add_argument("--per-replica-batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=15)
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    global_batch = args.per_replica_batch * strategy.num_replicas_in_sync

    train_ds = make_dataset(args.data + "/train", global_batch, training=True)
    val_ds = make_dataset(args.data + "/val", global_batch, training=False)

    with strategy.scope():
        model = build_unet()
        model.compile(
            optimizer=keras.optimizers.Adam(1e-3),
            loss="binary_crossentropy",
            metrics=[keras.metrics.BinaryIoU(target_class_ids=[1], name="iou")],
        )

    model.fit(train_ds, validation_data=val_ds, epochs=args.epochs,
              callbacks=[keras.callbacks.ModelCheckpoint("unet.keras", save_best_only=True)])


if __name__ == "__main__":
    main()
