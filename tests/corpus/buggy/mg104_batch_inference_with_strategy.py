"""Offline scoring job: run a saved model over a big TFRecord shard on all GPUs."""
import sys

import tensorflow as tf

MODEL_PATH = sys.argv[1]
OUT_PATH = sys.argv[2]

strategy = tf.distribute.MirroredStrategy()


def parse(record):
    feats = tf.io.parse_single_example(record, {"image": tf.io.FixedLenFeature([], tf.string)})
    img = tf.io.decode_jpeg(feats["image"], channels=3)
    return tf.image.resize(img, (224, 224)) / 255.0


ds = tf.data.TFRecordDataset(tf.io.gfile.glob("gs://bucket/shards/*.tfrec"))
ds = ds.map(parse, num_parallel_calls=tf.data.AUTOTUNE).batch(256)  # expect: MG201

model = tf.keras.models.load_model(MODEL_PATH, compile=False)  # expect: MG104
preds = model.predict(ds, verbose=1)
tf.io.write_file(OUT_PATH, tf.io.serialize_tensor(tf.constant(preds)))
