"""Text classification: the TextVectorization layer is adapted outside the scope
(preprocessing layers are not models), the model is built inside."""
import tensorflow as tf
from tensorflow.keras import layers

strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync

raw_train_ds = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=batch_size,
                                                          validation_split=0.2, subset="training", seed=42)
raw_val_ds = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=batch_size,
                                                        validation_split=0.2, subset="validation", seed=42)

vectorize_layer = layers.TextVectorization(max_tokens=20000, output_mode="int", output_sequence_length=500)
vectorize_layer.adapt(raw_train_ds.map(lambda x, y: x))

train_ds = raw_train_ds.map(lambda x, y: (vectorize_layer(x), y)).cache().prefetch(10)
val_ds = raw_val_ds.map(lambda x, y: (vectorize_layer(x), y)).cache().prefetch(10)

with strategy.scope():
    inputs = tf.keras.Input(shape=(None,), dtype="int64")
    x = layers.Embedding(20000, 128)(inputs)
    x = layers.Dropout(0.5)(x)
    x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
    x = layers.GlobalMaxPooling1D()(x)
    predictions = layers.Dense(1, activation="sigmoid", name="predictions")(x)
    model = tf.keras.Model(inputs, predictions)
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

model.fit(train_ds, validation_data=val_ds, epochs=3)
