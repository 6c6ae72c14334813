"""Shape 9.8 (valid): `.batch(N)` calls whose datasets never reach the strategy.

Style: tensorflow/docs site/en/tutorials/text/text_generation.ipynb (a character
stream chunked with `.batch(seq_length + 1, drop_remainder=True)` before the real
batch), keras-io text examples that build a vocabulary with
`vectorize_layer.adapt(text_ds.batch(1024))`, and a host-side evaluation loop on
the coordinator that calls the model directly on `.batch(256)` batches. The only
global batch (the one given to `fit`) is scaled.
"""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
SEQ_LEN = 100
BATCH_SIZE = 64 * strategy.num_replicas_in_sync

text = open("shakespeare.txt", "rb").read().decode("utf-8")
lines = tf.data.Dataset.from_tensor_slices(text.split("\n"))

ids_from_chars = tf.keras.layers.StringLookup(vocabulary=sorted(set(text)), mask_token=None)
vectorizer = tf.keras.layers.TextVectorization(max_tokens=20_000)
vectorizer.adapt(lines.batch(1024))

all_ids = ids_from_chars(tf.strings.unicode_split(text, "UTF-8"))
sequences = tf.data.Dataset.from_tensor_slices(all_ids).batch(SEQ_LEN + 1, drop_remainder=True)
dataset = sequences.map(lambda s: (s[:-1], s[1:]))
dataset = dataset.shuffle(10_000).batch(BATCH_SIZE, drop_remainder=True).prefetch(tf.data.AUTOTUNE)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(ids_from_chars.vocabulary_size(), 256),
        tf.keras.layers.GRU(1024, return_sequences=True),
        tf.keras.layers.Dense(ids_from_chars.vocabulary_size()),
    ])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

model.fit(dataset, epochs=20)

# Host-side evaluation on the coordinator: the model is called directly, batch by batch.
held_out = tf.data.Dataset.from_tensor_slices(all_ids[-50_000:]).batch(SEQ_LEN + 1, drop_remainder=True)
losses = []
for seq in held_out.map(lambda s: (s[:-1], s[1:])).batch(256):
    logits = model(seq[0], training=False)
    losses.append(tf.keras.losses.sparse_categorical_crossentropy(seq[1], logits, from_logits=True).numpy().mean())
print("held-out loss", np.mean(losses))
