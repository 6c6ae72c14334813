"""tensorflow/docs keras/regression (auto MPG) moved onto two GPUs: normalizer adapted before the scope."""
import numpy as np
import pandas as pd
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

url = "http://archive.ics.uci.edu/ml/machine-learning-databases/auto-mpg/auto-mpg.data"
column_names = ["MPG", "Cylinders", "Displacement", "Horsepower", "Weight", "Acceleration", "Model Year", "Origin"]
raw_dataset = pd.read_csv(url, names=column_names, na_values="?", comment="\t", sep=" ", skipinitialspace=True)
dataset = raw_dataset.dropna()
dataset = pd.get_dummies(dataset, columns=["Origin"], prefix="", prefix_sep="")

train_dataset = dataset.sample(frac=0.8, random_state=0)
test_dataset = dataset.drop(train_dataset.index)
train_features = train_dataset.copy()
test_features = test_dataset.copy()
train_labels = train_features.pop("MPG")
test_labels = test_features.pop("MPG")

strategy = tf.distribute.MirroredStrategy()
print("Number of devices: {}".format(strategy.num_replicas_in_sync))

normalizer = tf.keras.layers.Normalization(axis=-1)  # expect: MG105
normalizer.adapt(np.array(train_features, dtype="float32"))
print(normalizer.mean.numpy())


def build_and_compile_model(norm):
    model = keras.Sequential([
        norm,
        layers.Dense(64, activation="relu"),
        layers.Dense(64, activation="relu"),
        layers.Dense(1),
    ])
    model.compile(loss="mean_absolute_error", optimizer=tf.keras.optimizers.Adam(0.001))
    return model


with strategy.scope():
    dnn_model = build_and_compile_model(normalizer)

history = dnn_model.fit(
    np.array(train_features, dtype="float32"),
    train_labels,
    validation_split=0.2,
    batch_size=32 * strategy.num_replicas_in_sync,
    epochs=100,
)
dnn_model.evaluate(np.array(test_features, dtype="float32"), test_labels, batch_size=256 * strategy.num_replicas_in_sync)
