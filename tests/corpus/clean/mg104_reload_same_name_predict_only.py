"""Kaggle tabular kernel: after training, `model` is rebound to a reload of the best checkpoint, only to predict."""
import numpy as np
import pandas as pd
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 512 * strategy.num_replicas_in_sync

train = pd.read_csv("/kaggle/input/tabular-playground/train.csv")
test = pd.read_csv("/kaggle/input/tabular-playground/test.csv")
y = train.pop("target").values.astype("float32")
X = train.drop(columns=["id"]).values.astype("float32")
X_test = test.drop(columns=["id"]).values.astype("float32")

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(X.shape[1],)),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Dense(256, activation="swish"),
        tf.keras.layers.Dropout(0.3),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=[tf.keras.metrics.AUC()])

checkpoint = tf.keras.callbacks.ModelCheckpoint("best.keras", monitor="val_auc", mode="max", save_best_only=True)
model.fit(X, y, validation_split=0.2, batch_size=BATCH_SIZE, epochs=30, callbacks=[checkpoint])

model = tf.keras.models.load_model("best.keras")
preds = model.predict(X_test, batch_size=BATCH_SIZE).ravel()
pd.DataFrame({"id": test["id"], "target": np.clip(preds, 0, 1)}).to_csv("submission.csv", index=False)
