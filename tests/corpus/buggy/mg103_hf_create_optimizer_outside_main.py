"""HF TF example shape (main + argparse): create_optimizer called before the scope that compiles."""
import argparse

import tensorflow as tf
from transformers import AutoTokenizer, TFAutoModelForTokenClassification, create_optimizer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="bert-base-cased")
    parser.add_argument("--per_device_train_batch_size", type=int, default=8)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--num_train_epochs", type=int, default=3)
    parser.add_argument("--num_labels", type=int, default=9)
    return parser.parse_args()


def main():
    args = parse_args()
    gpus = tf.config.list_physical_devices("GPU")
    strategy = tf.distribute.MirroredStrategy() if len(gpus) > 1 else tf.distribute.OneDeviceStrategy("/gpu:0")
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)

    total_batch = args.per_device_train_batch_size * strategy.num_replicas_in_sync
    train_set = tf.data.experimental.load("conll_train").shuffle(1000).batch(total_batch)
    num_train_steps = int(train_set.cardinality()) * args.num_train_epochs

    optimizer, lr_schedule = create_optimizer(  # expect: MG103
        init_lr=args.learning_rate,
        num_train_steps=num_train_steps,
        num_warmup_steps=int(0.1 * num_train_steps),
        weight_decay_rate=0.01,
    )

    with strategy.scope():
        model = TFAutoModelForTokenClassification.from_pretrained(args.model_name_or_path, num_labels=args.num_labels)
        model.compile(optimizer=optimizer, jit_compile=True)

    model.fit(train_set, epochs=args.num_train_epochs)
    model.save_pretrained("ner-model")
    tokenizer.save_pretrained("ner-model")


if __name__ == "__main__":
    main()
