"""Text classification with a small Transformer, data-parallel."""
import tensorflow as tf

import configs
from configs import BATCH_SIZE, CONFIG, SEQ_LEN, VOCAB_SIZE
from data import make_datasets, to_dataset
from models import transformer_classifier

strategy = tf.distribute.MirroredStrategy()

train_ds, val_ds = make_datasets(BATCH_SIZE, SEQ_LEN)  # expect: MG201

with strategy.scope():
    model = transformer_classifier(SEQ_LEN, VOCAB_SIZE, CONFIG)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

model.fit(train_ds, validation_data=val_ds, epochs=CONFIG["epochs"])

(_, _), (x_test, y_test) = tf.keras.datasets.imdb.load_data(num_words=VOCAB_SIZE)
x_test = tf.keras.utils.pad_sequences(x_test, maxlen=SEQ_LEN)
test_ds = to_dataset(x_test, y_test).batch(configs.BATCH_SIZE)  # expect: MG201
model.evaluate(test_ds)
model.evaluate(x_test, y_test, batch_size=CONFIG["val_batch_size"])  # expect: MG201
