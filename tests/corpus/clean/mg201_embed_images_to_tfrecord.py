"""Pre-compute image embeddings on all GPUs and write them to TFRecords for the head's training."""
import tensorflow as tf

PER_REPLICA = 64
strategy = tf.distribute.MirroredStrategy()
global_batch = PER_REPLICA * strategy.num_replicas_in_sync

with strategy.scope():
    encoder = tf.keras.applications.EfficientNetV2S(include_top=False, weights="imagenet", pooling="avg")

files = tf.data.Dataset.list_files("images/*.jpg", shuffle=False)
images = files.map(lambda f: tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(f), 3), (384, 384)))
embeddings = encoder.predict(images.batch(global_batch))

with tf.io.TFRecordWriter("embeddings.tfrecord") as writer:
    for vector in embeddings:
        feature = {"embedding": tf.train.Feature(float_list=tf.train.FloatList(value=vector.tolist()))}
        writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
