"""Shape 9.10 (valid): keras-io's "end-to-end model" built and compiled after training, only evaluated and exported.

Style: keras-team/keras-io examples/nlp/text_classification_from_scratch.py (train an int
model on `map(vectorize_text)` data, then `end_to_end_model = keras.Model(inputs,
outputs)` around `vectorize_layer` and the trained model, compile, `evaluate(raw_test_ds)`),
run under MirroredStrategy. Measured (2 CPU replicas, Keras 3.15 and tf-keras 2.21): the
end-to-end model built and compiled outside the scope evaluates without error. It is
never trained, so neither MG101, MG102 nor MG105 applies.
"""
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync
max_features, sequence_length = 20_000, 500

raw_train_ds = keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=batch_size)
raw_test_ds = keras.utils.text_dataset_from_directory("aclImdb/test", batch_size=batch_size)

vectorize_layer = layers.TextVectorization(max_tokens=max_features, output_sequence_length=sequence_length)
vectorize_layer.adapt(raw_train_ds.map(lambda x, y: x))
train_ds = raw_train_ds.map(lambda x, y: (vectorize_layer(tf.expand_dims(x, -1)), y)).cache().prefetch(10)

with strategy.scope():
    inputs = keras.Input(shape=(None,), dtype="int64")
    x = layers.Embedding(max_features, 128)(inputs)
    x = layers.Conv1D(128, 7, strides=3, activation="relu")(x)
    x = layers.GlobalMaxPooling1D()(x)
    model = keras.Model(inputs, layers.Dense(1, activation="sigmoid")(x))
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

model.fit(train_ds, epochs=3)

string_input = keras.Input(shape=(1,), dtype="string")
end_to_end_model = keras.Model(string_input, model(vectorize_layer(string_input)))
end_to_end_model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
end_to_end_model.evaluate(raw_test_ds)
end_to_end_model.save("imdb_end_to_end.keras")
