"""Shape 9.8 (invalid): host-side batches beside a training batch that is a literal.

Style: the same text_generation tutorial shape run under a strategy: the
`.batch(SEQ_LEN + 1)` chunking and the `adapt` batch are not global batches
(not reported), but the dataset given to `fit` is batched with a literal 64, and
a `.batch(500)` dataset is given to the replicated model's `predict`: both flow
into the strategy and are MG201.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
SEQ_LEN = 100

text = open("input.txt", "rb").read().decode("utf-8")
vocab = sorted(set(text))
ids_from_chars = tf.keras.layers.StringLookup(vocabulary=vocab, mask_token=None)
all_ids = ids_from_chars(tf.strings.unicode_split(text, "UTF-8"))

sequences = tf.data.Dataset.from_tensor_slices(all_ids).batch(SEQ_LEN + 1, drop_remainder=True)
dataset = sequences.map(lambda s: (s[:-1], s[1:]))
dataset = dataset.shuffle(10_000).batch(64, drop_remainder=True)  # expect: MG201

normalizer_text = tf.data.Dataset.from_tensor_slices(text.split("\n"))
vectorizer = tf.keras.layers.TextVectorization(max_tokens=5000)
vectorizer.adapt(normalizer_text.batch(1024))

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(len(vocab) + 1, 128),
        tf.keras.layers.LSTM(512, return_sequences=True),
        tf.keras.layers.Dense(len(vocab) + 1),
    ])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

model.fit(dataset, epochs=10)
probe = sequences.map(lambda s: s[:-1]).take(2000).batch(500)  # expect: MG201
predictions = model.predict(probe)
