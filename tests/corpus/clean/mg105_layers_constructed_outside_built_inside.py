"""MG105 (valid): layers *constructed* outside but first built inside; a vectorizer adapted outside used in tf.data.

Style: keras-io examples/nlp/pretrained_word_embeddings.py
(`embedding_layer = Embedding(num_tokens, embedding_dim,
embeddings_initializer=keras.initializers.Constant(embedding_matrix), trainable=False)`
made at top level, first called in the model) and keras-io text classification
examples that adapt `TextVectorization` outside and apply it in a `tf.data` `map`.
Measured (2 CPU replicas, Keras 3.15 and tf-keras 2.21): an unbuilt layer owns no
variables, and both patterns `fit` without error.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
batch_size = 128 * strategy.num_replicas_in_sync

texts = tf.data.TextLineDataset("news.txt")
vectorizer = layers.TextVectorization(max_tokens=20_000, output_sequence_length=200)
vectorizer.adapt(texts.batch(1024))

embedding_matrix = np.load("glove_matrix.npy")
embedding_layer = layers.Embedding(
    embedding_matrix.shape[0],
    embedding_matrix.shape[1],
    embeddings_initializer=keras.initializers.Constant(embedding_matrix),
    trainable=False,
)
classifier_head = layers.Dense(20, activation="softmax")

with strategy.scope():
    int_sequences_input = keras.Input(shape=(None,), dtype="int64")
    x = embedding_layer(int_sequences_input)
    x = layers.Conv1D(128, 5, activation="relu")(x)
    x = layers.GlobalMaxPooling1D()(x)
    model = keras.Model(int_sequences_input, classifier_head(x))
    model.compile(loss="sparse_categorical_crossentropy", optimizer="rmsprop", metrics=["acc"])

labelled = tf.data.Dataset.load("news_labelled").batch(batch_size)
labelled = labelled.map(lambda text, label: (vectorizer(text), label), num_parallel_calls=tf.data.AUTOTUNE)
model.fit(labelled, epochs=20)
