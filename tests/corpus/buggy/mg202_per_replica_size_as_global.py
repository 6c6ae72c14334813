"""MG202 (invalid): per-replica sizes used where the global batch belongs.

Style: Hugging Face TF examples (`--per_device_train_batch_size`, from
examples/tensorflow/text-classification/run_glue.py) and tensorflow/docs
custom_training (`BATCH_SIZE_PER_REPLICA`), where the per-replica value is handed
to `prepare_tf_dataset`, to `.batch()` before `experimental_distribute_dataset`, and to
`fit(batch_size=)` without multiplying by `num_replicas_in_sync`. MG202 (not MG201) for
the Hugging Face per-device field; issue 17: the constant `BATCH_SIZE_PER_REPLICA = 32` is
only a constant by its value (its name decides nothing), so those two batches are MG201.
"""
import argparse

import tensorflow as tf
from datasets import load_dataset
from transformers import AutoTokenizer, TFAutoModelForSequenceClassification

parser = argparse.ArgumentParser()
parser.add_argument("--per_device_train_batch_size", type=int, default=8)
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE_PER_REPLICA = 32

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
raw = load_dataset("imdb")
encoded = raw.map(lambda ex: tokenizer(ex["text"], truncation=True, max_length=256), batched=True)

with strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
    model.compile(optimizer=tf.keras.optimizers.Adam(2e-5), metrics=["accuracy"])

train_set = model.prepare_tf_dataset(encoded["train"], shuffle=True, tokenizer=tokenizer,
                                     batch_size=args.per_device_train_batch_size)  # expect: MG202
model.fit(train_set, epochs=2)

features = tf.random.normal((4096, 16))
labels = tf.random.uniform((4096,), maxval=2, dtype=tf.int32)
ds = tf.data.Dataset.from_tensor_slices((features, labels)).batch(BATCH_SIZE_PER_REPLICA)  # expect: MG201
dist_ds = strategy.experimental_distribute_dataset(ds)

with strategy.scope():
    probe = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    probe.compile(optimizer="sgd", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
probe.fit(features, labels, batch_size=BATCH_SIZE_PER_REPLICA, epochs=1)  # expect: MG201
