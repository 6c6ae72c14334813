"""Kaggle TPU flowers kernel: EfficientNet backbone made in its own cell before the scope."""
import math

import tensorflow as tf
from kaggle_datasets import KaggleDatasets

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    print("Running on TPU ", tpu.master())
except ValueError:
    tpu = None

if tpu:
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
else:
    strategy = tf.distribute.get_strategy()
print("REPLICAS: ", strategy.num_replicas_in_sync)

GCS_PATH = KaggleDatasets().get_gcs_path("tpu-getting-started")
IMAGE_SIZE = [224, 224]
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
AUTO = tf.data.experimental.AUTOTUNE


def decode_image(image_data):
    image = tf.image.decode_jpeg(image_data, channels=3)
    image = tf.cast(image, tf.float32) / 255.0
    return tf.reshape(image, [*IMAGE_SIZE, 3])


def get_training_dataset(filenames):
    ds = tf.data.TFRecordDataset(filenames, num_parallel_reads=AUTO)
    ds = ds.map(lambda r: (decode_image(r), 0), num_parallel_calls=AUTO)
    ds = ds.repeat().shuffle(2048)
    ds = ds.batch(BATCH_SIZE)
    return ds.prefetch(AUTO)


def lrfn(epoch):
    return 1e-5 + (5e-5 * strategy.num_replicas_in_sync - 1e-5) * math.exp(-0.8 * epoch)


pretrained_model = tf.keras.applications.EfficientNetB0(  # expect: MG101
    weights="imagenet", include_top=False, input_shape=[*IMAGE_SIZE, 3]
)
pretrained_model.trainable = True

with strategy.scope():
    model = tf.keras.Sequential([
        pretrained_model,
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(104, activation="softmax"),
    ])
    model.compile(
        optimizer="adam",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )

lr_callback = tf.keras.callbacks.LearningRateScheduler(lrfn, verbose=True)
train_files = tf.io.gfile.glob(GCS_PATH + "/tfrecords-jpeg-224x224/train/*.tfrec")
history = model.fit(get_training_dataset(train_files), steps_per_epoch=100, epochs=12, callbacks=[lr_callback])
