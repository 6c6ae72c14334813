#!/usr/bin/env python3
"""Train a text classifier on IMDB.  Usage: python train.py --epochs 5"""
import argparse

import tensorflow as tf
from tensorflow import keras


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--vocab", type=int, default=20000)
    p.add_argument("--maxlen", type=int, default=200)
    return p.parse_args()


def main():
    args = parse_args()
    (x_train, y_train), (x_val, y_val) = keras.datasets.imdb.load_data(num_words=args.vocab)
    x_train = keras.utils.pad_sequences(x_train, maxlen=args.maxlen)
    x_val = keras.utils.pad_sequences(x_val, maxlen=args.maxlen)

    strategy = tf.distribute.MirroredStrategy()

    inputs = keras.Input(shape=(None,), dtype="int32")
    x = keras.layers.Embedding(args.vocab, 128)(inputs)
    x = keras.layers.Bidirectional(keras.layers.LSTM(64, return_sequences=True))(x)
    x = keras.layers.Bidirectional(keras.layers.LSTM(64))(x)
    outputs = keras.layers.Dense(1, activation="sigmoid")(x)
    model = keras.Model(inputs, outputs)  # expect: MG101

    with strategy.scope():
        model.compile("adam", "binary_crossentropy", metrics=["accuracy"])

    model.fit(x_train, y_train, batch_size=args.batch_size, epochs=args.epochs,
              validation_data=(x_val, y_val))


if __name__ == "__main__":
    main()
