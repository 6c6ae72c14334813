#!/usr/bin/env python
# Fine-tune a HuggingFace TF model for sequence classification on TPU or GPUs.
import argparse

import tensorflow as tf
from datasets import load_dataset
from transformers import AutoTokenizer, TFAutoModelForSequenceClassification


def get_strategy(tpu_name=None):
    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu_name)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        return tf.distribute.TPUStrategy(resolver)
    except (ValueError, KeyError):
        if len(tf.config.list_physical_devices("GPU")) > 1:
            return tf.distribute.MirroredStrategy()
        return tf.distribute.OneDeviceStrategy("/gpu:0")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="distilbert-base-uncased")
    parser.add_argument("--per_device_train_batch_size", type=int, default=32)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--tpu", default=None)
    args = parser.parse_args()

    strategy = get_strategy(args.tpu)
    total_train_batch_size = args.per_device_train_batch_size * strategy.num_replicas_in_sync

    raw = load_dataset("glue", "sst2")
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    encoded = raw.map(lambda ex: tokenizer(ex["sentence"], truncation=True, padding="max_length", max_length=128),
                      batched=True)

    with strategy.scope():
        model = TFAutoModelForSequenceClassification.from_pretrained(args.model_name_or_path, num_labels=2)
        tf_train = model.prepare_tf_dataset(encoded["train"], shuffle=True, batch_size=total_train_batch_size,
                                            tokenizer=tokenizer)
        tf_eval = model.prepare_tf_dataset(encoded["validation"], shuffle=False, batch_size=total_train_batch_size,
                                           tokenizer=tokenizer)
        optimizer = tf.keras.optimizers.Adam(learning_rate=args.learning_rate)
        model.compile(optimizer=optimizer, metrics=["accuracy"], jit_compile=True)

    model.fit(tf_train, validation_data=tf_eval, epochs=3)
    model.save_pretrained("./sst2-finetuned")


if __name__ == "__main__":
    main()
