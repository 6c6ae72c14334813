"""transformers examples/tensorflow/text-classification shape: tokenizer/config outside, model/optimizer inside."""
import tensorflow as tf
from datasets import load_dataset
from transformers import (
    AutoConfig,
    AutoTokenizer,
    DataCollatorWithPadding,
    HfArgumentParser,
    TFAutoModelForSequenceClassification,
    TFTrainingArguments,
    create_optimizer,
)
from transformers.keras_callbacks import PushToHubCallback

parser = HfArgumentParser(TFTrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
checkpoint = "bert-base-cased"

config = AutoConfig.from_pretrained(checkpoint, num_labels=2)
tokenizer = AutoTokenizer.from_pretrained(checkpoint)
raw_datasets = load_dataset("glue", "mrpc")
tokenized = raw_datasets.map(lambda e: tokenizer(e["sentence1"], e["sentence2"], truncation=True), batched=True)
data_collator = DataCollatorWithPadding(tokenizer, return_tensors="np")

with training_args.strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained(checkpoint, config=config)
    num_replicas = training_args.strategy.num_replicas_in_sync
    total_train_batch_size = training_args.per_device_train_batch_size * num_replicas
    total_eval_batch_size = training_args.per_device_eval_batch_size * num_replicas
    tf_train = model.prepare_tf_dataset(
        tokenized["train"], shuffle=True, batch_size=total_train_batch_size, collate_fn=data_collator
    )
    tf_eval = model.prepare_tf_dataset(
        tokenized["validation"], shuffle=False, batch_size=total_eval_batch_size, collate_fn=data_collator
    )
    num_train_steps = len(tf_train) * int(training_args.num_train_epochs)
    optimizer, schedule = create_optimizer(
        init_lr=training_args.learning_rate,
        num_train_steps=num_train_steps,
        num_warmup_steps=int(training_args.warmup_ratio * num_train_steps),
        weight_decay_rate=training_args.weight_decay,
    )
    model.compile(optimizer=optimizer, metrics=["accuracy"], jit_compile=False)

callbacks = []
if training_args.push_to_hub:
    callbacks.append(PushToHubCallback(output_dir=training_args.output_dir, tokenizer=tokenizer))
model.fit(tf_train, validation_data=tf_eval, epochs=int(training_args.num_train_epochs), callbacks=callbacks)
