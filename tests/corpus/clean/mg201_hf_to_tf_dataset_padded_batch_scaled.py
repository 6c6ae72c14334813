"""HF datasets `to_tf_dataset` with a scaled batch; a padded_batch validation pipeline, also scaled."""
import tensorflow as tf
from datasets import load_dataset
from transformers import AutoTokenizer, DataCollatorWithPadding, TFAutoModelForSequenceClassification

strategy = tf.distribute.MirroredStrategy()
PER_DEVICE_BATCH = 16
TOTAL_BATCH = PER_DEVICE_BATCH * strategy.num_replicas_in_sync

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
raw = load_dataset("sst2")
encoded = raw.map(lambda e: tokenizer(e["sentence"], truncation=True), batched=True)
collator = DataCollatorWithPadding(tokenizer=tokenizer, return_tensors="tf")

tf_train = encoded["train"].to_tf_dataset(
    columns=["input_ids", "attention_mask"], label_cols=["label"], shuffle=True,
    batch_size=TOTAL_BATCH, collate_fn=collator,
)
val_ids = tf.ragged.constant(encoded["validation"]["input_ids"])
val_ds = tf.data.Dataset.from_tensor_slices((val_ids.to_tensor(), encoded["validation"]["label"]))
val_ds = val_ds.map(lambda ids, label: ({"input_ids": ids}, label)).padded_batch(TOTAL_BATCH)

with strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
    model.compile(optimizer=tf.keras.optimizers.Adam(2e-5),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
model.fit(tf_train, validation_data=val_ds, epochs=2)
