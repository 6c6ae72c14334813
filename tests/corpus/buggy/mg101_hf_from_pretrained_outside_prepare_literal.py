"""Hugging Face course style fine-tune: model loaded before the scope, literal batch to prepare_tf_dataset."""
import tensorflow as tf
from datasets import load_dataset
from transformers import (
    AutoTokenizer,
    DataCollatorWithPadding,
    TFAutoModelForSequenceClassification,
    create_optimizer,
)
from transformers.keras_callbacks import KerasMetricCallback, PushToHubCallback

checkpoint = "distilbert-base-uncased"
strategy = tf.distribute.MirroredStrategy()

raw = load_dataset("imdb")
tokenizer = AutoTokenizer.from_pretrained(checkpoint)


def tokenize(batch):
    return tokenizer(batch["text"], truncation=True)


tokenized = raw.map(tokenize, batched=True)
collator = DataCollatorWithPadding(tokenizer=tokenizer, return_tensors="tf")

model = TFAutoModelForSequenceClassification.from_pretrained(checkpoint, num_labels=2)  # expect: MG101

tf_train = model.prepare_tf_dataset(tokenized["train"], batch_size=16, shuffle=True, collate_fn=collator)  # expect: MG201
tf_eval = model.prepare_tf_dataset(
    tokenized["test"],
    batch_size=16 * strategy.num_replicas_in_sync,
    shuffle=False,
    collate_fn=collator,
)

num_train_steps = len(tf_train) * 3
with strategy.scope():
    optimizer, schedule = create_optimizer(init_lr=2e-5, num_train_steps=num_train_steps, num_warmup_steps=0)
    model.compile(optimizer=optimizer, metrics=["accuracy"])

callbacks = [
    KerasMetricCallback(metric_fn=lambda p: {}, eval_dataset=tf_eval),
    PushToHubCallback(output_dir="imdb-distilbert", tokenizer=tokenizer),
]
model.fit(tf_train, validation_data=tf_eval, epochs=3, callbacks=callbacks)
