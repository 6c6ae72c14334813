"""Kaggle TPU kernel that sets the batch in each detection branch: scaled on TPU, plain on the default strategy."""
import tensorflow as tf

AUTO = tf.data.experimental.AUTOTUNE
try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
    BATCH_SIZE = 16 * strategy.num_replicas_in_sync
except ValueError:
    # No TPU: the default strategy has exactly one replica, so the global batch is the per-replica one.
    strategy = tf.distribute.get_strategy()
    BATCH_SIZE = 16
print("REPLICAS:", strategy.num_replicas_in_sync, "BATCH_SIZE:", BATCH_SIZE)

IMAGE_SIZE = [256, 256]


def decode(example):
    features = tf.io.parse_single_example(example, {"image": tf.io.FixedLenFeature([], tf.string),
                                                    "target": tf.io.FixedLenFeature([], tf.int64)})
    image = tf.image.resize(tf.io.decode_jpeg(features["image"], channels=3), IMAGE_SIZE) / 255.0
    return image, features["target"]


files = tf.io.gfile.glob("gs://kds-bucket/train*.tfrec")
train_ds = tf.data.TFRecordDataset(files, num_parallel_reads=AUTO).map(decode, num_parallel_calls=AUTO)
train_ds = train_ds.repeat().shuffle(2048).batch(BATCH_SIZE, drop_remainder=True).prefetch(AUTO)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(*IMAGE_SIZE, 3)),
        tf.keras.applications.Xception(include_top=False, weights=None, pooling="avg"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=[tf.keras.metrics.AUC()])

model.fit(train_ds, steps_per_epoch=100, epochs=10)
