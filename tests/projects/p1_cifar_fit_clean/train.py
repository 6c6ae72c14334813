"""Train the CIFAR-10 CNN on every visible GPU."""
import argparse

import tensorflow as tf

from configs import TrainConfig
from data import build_eval_dataset, build_train_dataset
from models import build_model, compile_model


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--model-dir", default="/tmp/cifar")
    return parser.parse_args()


def main():
    args = parse_args()
    cfg = TrainConfig()
    if args.epochs:
        cfg.epochs = args.epochs
    strategy = tf.distribute.MirroredStrategy()
    global_batch = cfg.per_replica_batch_size * strategy.num_replicas_in_sync
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
    train_ds = build_train_dataset(x_train, y_train, global_batch)
    val_ds = build_eval_dataset(x_test, y_test, global_batch)
    with strategy.scope():
        model = build_model(cfg)
        compile_model(model, cfg)
    callbacks = [tf.keras.callbacks.ModelCheckpoint(args.model_dir + "/ckpt.keras")]
    model.fit(train_ds, validation_data=val_ds, epochs=cfg.epochs, callbacks=callbacks)
    model.save(args.model_dir + "/final.keras")


if __name__ == "__main__":
    main()
