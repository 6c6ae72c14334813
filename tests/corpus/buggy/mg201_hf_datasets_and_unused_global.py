"""Shape 9.9 (invalid): Hugging Face dataset batch sizes, and a computed global batch left unused.

Style: huggingface/transformers examples/tensorflow/text-classification/run_glue.py
and the HF course (`model.prepare_tf_dataset(ds, batch_size=16)`,
`ds.to_tf_dataset(..., batch_size=8)`), under `strategy.scope()`. The script computes
`GLOBAL_BATCH = BATCH * num_replicas_in_sync` but batches with `BATCH` directly
(a name that does not say per replica: MG201, not MG202).
"""
import tensorflow as tf
from datasets import load_dataset
from transformers import AutoTokenizer, DataCollatorWithPadding, TFAutoModelForSequenceClassification

strategy = tf.distribute.MirroredStrategy()
BATCH = 16
GLOBAL_BATCH = BATCH * strategy.num_replicas_in_sync

raw = load_dataset("glue", "mrpc")
tokenizer = AutoTokenizer.from_pretrained("bert-base-cased")
encoded = raw.map(lambda ex: tokenizer(ex["sentence1"], ex["sentence2"], truncation=True), batched=True)
collator = DataCollatorWithPadding(tokenizer=tokenizer, return_tensors="tf")

with strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-cased", num_labels=2)
    model.compile(optimizer=tf.keras.optimizers.Adam(3e-5), metrics=["accuracy"])

train_set = model.prepare_tf_dataset(encoded["train"], shuffle=True, batch_size=BATCH, tokenizer=tokenizer)  # expect: MG201
val_set = encoded["validation"].to_tf_dataset(
    columns=["input_ids", "attention_mask", "token_type_ids"],
    label_cols=["label"],
    shuffle=False,
    collate_fn=collator,
    batch_size=8,  # expect: MG201
)
model.fit(train_set, validation_data=val_set, epochs=3)
