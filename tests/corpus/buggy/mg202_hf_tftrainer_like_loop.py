"""A loop in the shape of the old transformers TFTrainer (args.per_device_train_batch_size,
`self.args.strategy`, `@tf.function distributed_training_steps`), written by hand."""
import argparse

import tensorflow as tf
from transformers import AutoTokenizer, TFAutoModelForSequenceClassification

parser = argparse.ArgumentParser()
parser.add_argument("--model_name", default="distilbert-base-uncased")
parser.add_argument("--per_device_train_batch_size", type=int, default=16)
parser.add_argument("--learning_rate", type=float, default=5e-5)
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy()
tokenizer = AutoTokenizer.from_pretrained(args.model_name)
texts = ["great movie", "terrible plot"] * 512
labels = [1, 0] * 512
enc = tokenizer(texts, padding="max_length", truncation=True, max_length=64, return_tensors="tf")
train_ds = tf.data.Dataset.from_tensor_slices((dict(enc), labels)).shuffle(1024)
train_ds = train_ds.batch(args.per_device_train_batch_size)  # expect: MG202
dist_ds = strategy.experimental_distribute_dataset(train_ds)

with strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained(args.model_name, num_labels=2)
    optimizer = tf.keras.optimizers.Adam(args.learning_rate, epsilon=1e-8)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)


def run_model(features, labels):
    with tf.GradientTape() as tape:
        logits = model(features, training=True).logits
        loss = tf.reduce_mean(loss_fn(labels, logits))  # expect: MG301
    gradients = tape.gradient(loss, model.trainable_variables)
    gradients = [tf.clip_by_norm(g, 1.0) for g in gradients]
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@tf.function
def distributed_training_steps(batch):
    per_replica_loss = strategy.run(run_model, args=batch)
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_loss, axis=None)


for step, batch in enumerate(dist_ds):
    loss = distributed_training_steps(batch)
    if step % 10 == 0:
        print(f"step {step} loss {loss.numpy():.4f}")
