"""Reusable training entry point: distributed when asked, plain Keras otherwise."""
import argparse

import tensorflow as tf


def make_model(vocab_size, embed_dim=128):
    return tf.keras.Sequential([
        tf.keras.layers.Embedding(vocab_size, embed_dim, mask_zero=True),
        tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(64)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])


def compile_model(model, lr):
    model.compile(
        optimizer=tf.keras.optimizers.Adam(lr),
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )


def train(train_ds, val_ds, vocab_size, lr, epochs, strategy=None):
    if strategy is None:
        model = make_model(vocab_size)
        compile_model(model, lr)
    else:
        with strategy.scope():
            model = make_model(vocab_size)
            compile_model(model, lr)
    model.fit(train_ds, validation_data=val_ds, epochs=epochs)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--distributed", action="store_true")
    parser.add_argument("--per-replica-batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy() if args.distributed else None
    replicas = strategy.num_replicas_in_sync if strategy else 1
    batch = args.per_replica_batch * replicas

    encoder = tf.keras.layers.TextVectorization(max_tokens=20_000)
    train_raw = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=None)
    val_raw = tf.keras.utils.text_dataset_from_directory("aclImdb/test", batch_size=None)
    encoder.adapt(train_raw.map(lambda text, label: text).batch(batch))
    train_ds = train_raw.shuffle(10_000).batch(batch).map(lambda t, y: (encoder(t), y))
    val_ds = val_raw.batch(batch).map(lambda t, y: (encoder(t), y))
    model = train(train_ds, val_ds, encoder.vocabulary_size(), args.lr, args.epochs, strategy)
    model.save("sentiment.keras")


if __name__ == "__main__":
    main()
