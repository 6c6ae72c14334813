"""Tabular binary classifier with class weights, trained on all local GPUs."""
import pandas as pd
import tensorflow as tf
from tensorflow import keras

df = pd.read_csv("creditcard.csv")
labels = df.pop("Class").values
features = df.values.astype("float32")

neg, pos = (labels == 0).sum(), (labels == 1).sum()
class_weight = {0: (1 / neg) * (neg + pos) / 2.0, 1: (1 / pos) * (neg + pos) / 2.0}

optimizer = keras.optimizers.Adam(learning_rate=1e-3)  # expect: MG103
auc = keras.metrics.AUC(name="auc")  # expect: MG103
loss_fn = keras.losses.BinaryCrossentropy()

strategy = tf.distribute.MirroredStrategy()
batch_size = 2048 * strategy.num_replicas_in_sync

with strategy.scope():
    model = keras.Sequential([
        keras.layers.Dense(16, activation="relu", input_shape=(features.shape[-1],)),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=optimizer, loss=loss_fn, metrics=[auc, "accuracy"])

ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(100000).batch(batch_size)
model.fit(ds, epochs=20, class_weight=class_weight)
