"""Tabular baseline: scikit-learn preprocessing (with its own `strategy=` keyword) and a small Keras model."""
import numpy as np
import pandas as pd
import tensorflow as tf
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler

df = pd.read_csv("train.csv")
strategy = "median" if df.isna().mean().max() > 0.1 else "mean"
imputer = SimpleImputer(strategy=strategy)
features = StandardScaler().fit_transform(imputer.fit_transform(df.drop(columns=["target"])))
target = df["target"].to_numpy(dtype=np.float32)

model = tf.keras.Sequential([tf.keras.Input((features.shape[1],)),
                             tf.keras.layers.Dense(64, activation="relu"),
                             tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="binary_crossentropy",
              metrics=[tf.keras.metrics.AUC()])
ds = tf.data.Dataset.from_tensor_slices((features, target)).shuffle(1024).batch(256)
model.fit(ds, epochs=10)
