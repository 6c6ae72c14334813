"""MG105 (invalid): a `TextVectorization` layer adapted outside the scope and used inside a model built in it.

Style: keras-io examples/nlp/text_classification_from_scratch.py (Keras 2 era,
`vectorize_layer.adapt(text_ds)` at top level; its "end-to-end model" puts the
layer in front of the network) run under MirroredStrategy with tf-keras.
Measured with tf-keras 2.21 on 2 replicas: `fit` fails with "Variable
(VocabWeightHandler) was not created in the distribution strategy scope".
Reported where the layer is created.
"""
import tensorflow as tf
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync
max_features, sequence_length, embedding_dim = 20_000, 500, 128

raw_train_ds = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=batch_size,
                                                          validation_split=0.2, subset="training", seed=1337)
raw_val_ds = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=batch_size,
                                                        validation_split=0.2, subset="validation", seed=1337)

vectorize_layer = layers.TextVectorization(  # expect: MG105
    max_tokens=max_features,
    output_mode="int",
    output_sequence_length=sequence_length,
)
vectorize_layer.adapt(raw_train_ds.map(lambda x, y: x))

with strategy.scope():
    inputs = tf.keras.Input(shape=(1,), dtype="string")
    x = vectorize_layer(inputs)
    x = layers.Embedding(max_features, embedding_dim)(x)
    x = layers.Dropout(0.5)(x)
    x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
    x = layers.GlobalMaxPooling1D()(x)
    predictions = layers.Dense(1, activation="sigmoid", name="predictions")(x)
    model = tf.keras.Model(inputs, predictions)
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

model.fit(raw_train_ds, validation_data=raw_val_ds, epochs=3)
