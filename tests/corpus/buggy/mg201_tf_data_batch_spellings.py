"""Shape 9.9 (invalid): batch spellings beyond `.batch(N)` in tf.data pipelines.

Style: keras-cv object-detection and NLP pipelines (keras-io
examples/vision/retinanet.py uses `padded_batch`; keras-cv guides use
`tf.data.experimental.dense_to_ragged_batch` / `ragged_batch`; the TF NMT tutorial
uses `bucket_by_sequence_length`). Each fixed size reaches `fit` of the strategy's
model or `experimental_distribute_dataset`: MG201 where the size is written.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

tokens = tf.data.Dataset.load("tokenized_pairs")
boxes = tf.data.Dataset.load("detection_examples")

padded = tokens.padded_batch(64, padded_shapes=([None], [None]))  # expect: MG201
ragged = boxes.ragged_batch(32, drop_remainder=True)  # expect: MG201
applied = boxes.apply(tf.data.experimental.dense_to_ragged_batch(16))  # expect: MG201
bucketed = tokens.bucket_by_sequence_length(
    element_length_func=lambda x, y: tf.shape(x)[0],
    bucket_boundaries=[32, 64, 128],
    bucket_batch_sizes=[128, 64, 32, 16],  # expect: MG201
)

with strategy.scope():
    seq_model = tf.keras.Sequential([tf.keras.layers.Embedding(30_000, 128),
                                     tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(64)),
                                     tf.keras.layers.Dense(1)])
    seq_model.compile(optimizer="adam", loss="mse")
    detector = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3), tf.keras.layers.GlobalMaxPooling2D(),
                                    tf.keras.layers.Dense(4)])
    detector.compile(optimizer="adam", loss="mse")

seq_model.fit(padded, epochs=2)
seq_model.fit(bucketed, epochs=2)
detector.fit(ragged, epochs=2)
dist_applied = strategy.experimental_distribute_dataset(applied)
