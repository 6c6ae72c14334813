"""Imbalanced-data classifier with one precision/recall metric per threshold, built by comprehensions at the top."""
import numpy as np
import tensorflow as tf

THRESHOLDS = (0.3, 0.5, 0.7)
PRECISIONS = [tf.keras.metrics.Precision(thresholds=t, name=f"precision@{t}") for t in THRESHOLDS]  # expect: MG103
RECALLS = [tf.keras.metrics.Recall(thresholds=t, name=f"recall@{t}") for t in THRESHOLDS]  # expect: MG103

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 2048 * strategy.num_replicas_in_sync

features = np.random.rand(200_000, 29).astype("float32")
labels = (np.random.rand(200_000) < 0.002).astype("float32")
train_ds = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(200_000).batch(BATCH_SIZE)


def make_model(output_bias=None):
    bias = tf.keras.initializers.Constant(output_bias) if output_bias is not None else "zeros"
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(29,)),
        tf.keras.layers.Dense(16, activation="relu"),
        tf.keras.layers.Dropout(0.5),
        tf.keras.layers.Dense(1, activation="sigmoid", bias_initializer=bias),
    ])


initial_bias = np.log(labels.sum() / (len(labels) - labels.sum()))
with strategy.scope():
    model = make_model(output_bias=initial_bias)
    model.compile(
        optimizer=tf.keras.optimizers.Adam(1e-3),
        loss=tf.keras.losses.BinaryCrossentropy(),
        metrics=[tf.keras.metrics.AUC(name="prc", curve="PR"), *PRECISIONS, *RECALLS],
    )

model.fit(train_ds, epochs=20, class_weight={0: 0.5, 1: 250.0})
