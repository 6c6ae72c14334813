"""Multi-task Kaggle kernel: per-output metric objects in a module-level dict, compiled inside the scope."""
import tensorflow as tf

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()

BATCH_SIZE = 64 * strategy.num_replicas_in_sync
LOSSES = {"severity": "sparse_categorical_crossentropy", "present": "binary_crossentropy"}
METRICS = {
    "severity": [tf.keras.metrics.SparseCategoricalAccuracy(name="acc")],  # expect: MG103
    "present": [tf.keras.metrics.AUC(name="auc"), tf.keras.metrics.Recall(name="recall")],  # expect: MG103
}


def build_model():
    inputs = tf.keras.Input(shape=(256, 256, 3))
    backbone = tf.keras.applications.DenseNet121(include_top=False, weights=None, input_tensor=inputs, pooling="avg")
    severity = tf.keras.layers.Dense(5, activation="softmax", name="severity")(backbone.output)
    present = tf.keras.layers.Dense(1, activation="sigmoid", name="present")(backbone.output)
    return tf.keras.Model(inputs, {"severity": severity, "present": present})


def decode(record):
    image = tf.zeros((256, 256, 3))
    return image, {"severity": 0, "present": 1.0}


train_ds = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/train-*.tfrec")).map(decode)
train_ds = train_ds.shuffle(2048).batch(BATCH_SIZE, drop_remainder=True).prefetch(tf.data.AUTOTUNE)

with strategy.scope():
    model = build_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss=LOSSES, metrics=METRICS)

model.fit(train_ds, epochs=15, steps_per_epoch=300)
