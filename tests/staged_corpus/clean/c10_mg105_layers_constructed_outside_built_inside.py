"""MG105 (valid): layers *constructed* outside but first built inside; weightless lookups adapted outside.

Style: keras-io examples/nlp/pretrained_word_embeddings.py
(`embedding_layer = Embedding(num_tokens, embedding_dim,
embeddings_initializer=keras.initializers.Constant(embedding_matrix), trainable=False)`
made at top level, first called in the model) and text-classification examples
that adapt `TextVectorization` outside. Measured (Keras 3.15): an unbuilt layer owns
no variables until it is called, and an adapted `TextVectorization` owns none
(its vocabulary is a lookup table). Nothing is created outside the scope.
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
    string_input = keras.Input(shape=(1,), dtype="string")
    x = vectorizer(string_input)
    x = embedding_layer(x)
    x = layers.Conv1D(128, 5, activation="relu")(x)
    x = layers.GlobalMaxPooling1D()(x)
    model = keras.Model(string_input, classifier_head(x))
    model.compile(loss="sparse_categorical_crossentropy", optimizer="rmsprop", metrics=["acc"])

labelled = tf.data.Dataset.load("news_labelled").batch(batch_size)
model.fit(labelled, epochs=20)
