"""Kaggle GPU/TPU kernel with a `class CFG:` block; the batch size there is never scaled by the replicas."""
import numpy as np
import pandas as pd
import tensorflow as tf


class CFG:
    seed = 42
    img_size = 224
    batch_size = 32
    epochs = 8
    lr = 1e-4
    n_classes = 5


def get_strategy():
    try:
        tpu = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
        return tf.distribute.TPUStrategy(tpu)
    except ValueError:
        return tf.distribute.MirroredStrategy()


strategy = get_strategy()
tf.keras.utils.set_random_seed(CFG.seed)
df = pd.read_csv("/kaggle/input/cassava-leaf-disease-classification/train.csv")
paths = "/kaggle/input/cassava-leaf-disease-classification/train_images/" + df["image_id"].values
labels = df["label"].values


def load(path, label):
    image = tf.image.decode_jpeg(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, (CFG.img_size, CFG.img_size)) / 255.0, tf.one_hot(label, CFG.n_classes)


train_ds = tf.data.Dataset.from_tensor_slices((paths, labels)).shuffle(len(paths), seed=CFG.seed)
train_ds = train_ds.map(load, num_parallel_calls=tf.data.AUTOTUNE)
train_ds = train_ds.batch(CFG.batch_size).prefetch(tf.data.AUTOTUNE)  # expect: MG201

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(CFG.img_size, CFG.img_size, 3)),
        tf.keras.applications.EfficientNetB0(include_top=False, weights=None, pooling="avg"),
        tf.keras.layers.Dense(CFG.n_classes, activation="softmax"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(CFG.lr), loss="categorical_crossentropy", metrics=["accuracy"])

history = model.fit(train_ds, epochs=CFG.epochs)
np.save("history.npy", history.history)
