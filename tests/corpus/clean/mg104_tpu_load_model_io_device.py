"""Kaggle TPU inference/resume kernel: SaveOptions/LoadOptions made at top level, load_model inside the
TPU strategy's scope with experimental_io_device, batch scaled by replicas."""
import tensorflow as tf

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()

BATCH_SIZE = 16 * strategy.num_replicas_in_sync
load_locally = tf.saved_model.LoadOptions(experimental_io_device="/job:localhost")
save_locally = tf.saved_model.SaveOptions(experimental_io_device="/job:localhost")
AUTO = tf.data.AUTOTUNE


def decode(example):
    image = tf.image.decode_jpeg(example, channels=3)
    return tf.image.resize(tf.cast(image, tf.float32) / 255.0, [224, 224])


files = tf.io.gfile.glob("gs://bucket/test/*.tfrec")
test_ds = tf.data.TFRecordDataset(files, num_parallel_reads=AUTO).map(decode).batch(BATCH_SIZE).prefetch(AUTO)

with strategy.scope():
    model = tf.keras.models.load_model("/kaggle/input/effnet/model", options=load_locally)
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-5), loss="sparse_categorical_crossentropy",
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])

probabilities = model.predict(test_ds, verbose=1)
model.save("/kaggle/working/model", options=save_locally)
