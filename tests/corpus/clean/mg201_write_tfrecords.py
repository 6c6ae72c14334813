"""Convert the raw JPEG folders into sharded TFRecords (run once before train.py)."""
import os

import tensorflow as tf

NUM_SHARDS = 16
BATCH_SIZE = 256


def _bytes(value):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))


def _int64(value):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))


def write_shards(image_dir, out_dir):
    classes = sorted(os.listdir(image_dir))
    files = [(os.path.join(image_dir, c, f), i) for i, c in enumerate(classes)
             for f in os.listdir(os.path.join(image_dir, c))]
    ds = tf.data.Dataset.from_tensor_slices(([f for f, _ in files], [l for _, l in files]))
    ds = ds.map(lambda f, l: (tf.io.read_file(f), l)).batch(BATCH_SIZE)
    writers = [tf.io.TFRecordWriter(os.path.join(out_dir, f"train-{i:05d}.tfrecord"))
               for i in range(NUM_SHARDS)]
    for n, (images, labels) in enumerate(ds):
        for image, label in zip(images.numpy(), labels.numpy()):
            example = tf.train.Example(features=tf.train.Features(
                feature={"image": _bytes(image), "label": _int64(int(label))}))
            writers[n % NUM_SHARDS].write(example.SerializeToString())
    for w in writers:
        w.close()


if __name__ == "__main__":
    write_shards("raw/", "tfrecords/")
