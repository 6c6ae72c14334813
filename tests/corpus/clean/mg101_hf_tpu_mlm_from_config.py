"""transformers language-modeling-tpu run_mlm.py shape: config/tokenizer outside, from_config and optimizer inside."""
import argparse

import tensorflow as tf
from transformers import AutoConfig, AutoTokenizer, DataCollatorForLanguageModeling, TFAutoModelForMaskedLM
from transformers import create_optimizer
from transformers.keras_callbacks import PushToHubCallback


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokenizer", default="unigram-tokenizer-wikitext")
    parser.add_argument("--pretrained_model_config", default="roberta-base")
    parser.add_argument("--per_replica_batch_size", type=int, default=8)
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    parser.add_argument("--num_epochs", type=int, default=1)
    parser.add_argument("--output_dir", default="mlm-tpu")
    return parser.parse_args()


def initialize_tpu(args):
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    return tpu


def main(args):
    tpu = initialize_tpu(args)
    strategy = tf.distribute.TPUStrategy(tpu)
    tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)
    config = AutoConfig.from_pretrained(args.pretrained_model_config)
    config.vocab_size = tokenizer.vocab_size

    global_batch_size = args.per_replica_batch_size * strategy.num_replicas_in_sync
    total_train_steps = 100_000 // global_batch_size * args.num_epochs
    with strategy.scope():
        model = TFAutoModelForMaskedLM.from_config(config)
        model(model.dummy_inputs)
        optimizer, schedule = create_optimizer(
            num_train_steps=total_train_steps,
            num_warmup_steps=total_train_steps // 20,
            init_lr=args.learning_rate,
            weight_decay_rate=0.01,
        )
        model.compile(optimizer=optimizer, metrics=["accuracy"])

    data_collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm_probability=0.15, return_tensors="tf")
    records = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/train-*.tfrecord"))
    train_dataset = records.batch(global_batch_size, drop_remainder=True).map(lambda b: data_collator.tf_mask_tokens(b, vocab_size=len(tokenizer), mask_token_id=tokenizer.mask_token_id, special_tokens_mask=None))
    callbacks = [PushToHubCallback(output_dir=args.output_dir, tokenizer=tokenizer)]
    model.fit(train_dataset, epochs=args.num_epochs, callbacks=callbacks)
    model.save_pretrained(args.output_dir)


if __name__ == "__main__":
    main(parse_args())
