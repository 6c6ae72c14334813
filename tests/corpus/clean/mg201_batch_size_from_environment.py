"""SageMaker/Vertex-style entry point: the global batch size comes from the environment and hyperparameters."""
import json
import os

import tensorflow as tf

hyperparameters = json.loads(os.environ.get("SM_HPS", "{}"))
GLOBAL_BATCH_SIZE = int(os.environ.get("GLOBAL_BATCH_SIZE", hyperparameters.get("batch_size", 256)))
EPOCHS = int(hyperparameters.get("epochs", 10))
strategy = tf.distribute.MirroredStrategy()


def load_split(channel):
    files = tf.io.gfile.glob(os.path.join(os.environ.get(f"SM_CHANNEL_{channel.upper()}", "/opt/ml/input"), "*.tfrecord"))
    spec = {"x": tf.io.FixedLenFeature([20], tf.float32), "y": tf.io.FixedLenFeature([1], tf.float32)}
    ds = tf.data.TFRecordDataset(files).map(lambda r: tf.io.parse_single_example(r, spec))
    return ds.map(lambda e: (e["x"], e["y"]))


train_ds = load_split("train").shuffle(10_000).batch(GLOBAL_BATCH_SIZE).prefetch(tf.data.AUTOTUNE)
val_ds = load_split("validation").batch(GLOBAL_BATCH_SIZE)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(20,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse", metrics=[tf.keras.metrics.RootMeanSquaredError()])

model.fit(train_ds, validation_data=val_ds, epochs=EPOCHS)
model.save(os.path.join(os.environ.get("SM_MODEL_DIR", "/opt/ml/model"), "1"))
