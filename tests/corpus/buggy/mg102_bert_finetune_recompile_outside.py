"""Semantic similarity with a pretrained transformer encoder (keras-io style).

Stage 1 trains the head with the encoder frozen; stage 2 unfreezes the encoder
and recompiles with a small learning rate.
"""
import numpy as np
import pandas as pd
import tensorflow as tf
import transformers

max_length = 128
batch_size = 32
epochs = 2
labels = ["contradiction", "entailment", "neutral"]

train_df = pd.read_csv("SNLI_Corpus/snli_1.0_train.csv", nrows=100000)
valid_df = pd.read_csv("SNLI_Corpus/snli_1.0_dev.csv")

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    input_ids = tf.keras.layers.Input(shape=(max_length,), dtype=tf.int32, name="input_ids")
    attention_masks = tf.keras.layers.Input(shape=(max_length,), dtype=tf.int32, name="attention_masks")
    token_type_ids = tf.keras.layers.Input(shape=(max_length,), dtype=tf.int32, name="token_type_ids")
    bert_model = transformers.TFBertModel.from_pretrained("bert-base-uncased")
    bert_model.trainable = False
    bert_output = bert_model.bert(input_ids, attention_mask=attention_masks, token_type_ids=token_type_ids)
    sequence_output = bert_output.last_hidden_state
    bi_lstm = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(64, return_sequences=True))(sequence_output)
    avg_pool = tf.keras.layers.GlobalAveragePooling1D()(bi_lstm)
    max_pool = tf.keras.layers.GlobalMaxPooling1D()(bi_lstm)
    concat = tf.keras.layers.concatenate([avg_pool, max_pool])
    dropout = tf.keras.layers.Dropout(0.3)(concat)
    output = tf.keras.layers.Dense(3, activation="softmax")(dropout)
    model = tf.keras.models.Model(inputs=[input_ids, attention_masks, token_type_ids], outputs=output)
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="categorical_crossentropy", metrics=["acc"])

y_train = tf.keras.utils.to_categorical(train_df.label, num_classes=3)
y_val = tf.keras.utils.to_categorical(valid_df.label, num_classes=3)
train_data = (np.load("train_ids.npy"), np.load("train_mask.npy"), np.load("train_tt.npy"))
valid_data = (np.load("val_ids.npy"), np.load("val_mask.npy"), np.load("val_tt.npy"))

history = model.fit(list(train_data), y_train, validation_data=(list(valid_data), y_val), epochs=epochs)  # expect: MG201

# Fine-tuning: unfreeze the encoder and train end to end with a tiny learning rate.
bert_model.trainable = True
fine_tune_optimizer = tf.keras.optimizers.Adam(1e-5)  # expect: MG103
model.compile(  # expect: MG102
    optimizer=fine_tune_optimizer,
    loss="categorical_crossentropy",
    metrics=["accuracy"],
)
model.summary()
history = model.fit(list(train_data), y_train, validation_data=(list(valid_data), y_val), epochs=epochs)  # expect: MG201
