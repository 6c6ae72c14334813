# Kaggle TPU notebook exported as a script: detect TPU, fall back to GPU/CPU.
import tensorflow as tf
from kaggle_datasets import KaggleDatasets

AUTO = tf.data.experimental.AUTOTUNE


def get_strategy():
    try:
        tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
        tf.config.experimental_connect_to_cluster(tpu)
        tf.tpu.experimental.initialize_tpu_system(tpu)
        strategy = tf.distribute.TPUStrategy(tpu)
        print("Running on TPU", tpu.master())
    except ValueError:
        strategy = tf.distribute.MirroredStrategy()
    return strategy


strategy = get_strategy()
print("REPLICAS:", strategy.num_replicas_in_sync)

GCS_DS_PATH = KaggleDatasets().get_gcs_path("cassava-leaf-disease-tfrecords")
IMAGE_SIZE = [512, 512]
EPOCHS = 20
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
LR = 3e-5 * strategy.num_replicas_in_sync


def decode(example):
    features = tf.io.parse_single_example(example, {
        "image": tf.io.FixedLenFeature([], tf.string),
        "target": tf.io.FixedLenFeature([], tf.int64),
    })
    image = tf.image.decode_jpeg(features["image"], channels=3)
    image = tf.image.resize(tf.cast(image, tf.float32) / 255.0, IMAGE_SIZE)
    return image, features["target"]


def load_dataset(pattern, training=True):
    files = tf.io.gfile.glob(GCS_DS_PATH + pattern)
    ds = tf.data.TFRecordDataset(files, num_parallel_reads=AUTO).map(decode, num_parallel_calls=AUTO)
    if training:
        ds = ds.repeat().shuffle(2048)
    return ds.batch(BATCH_SIZE, drop_remainder=training).prefetch(AUTO)


def get_model():
    base = tf.keras.applications.EfficientNetB3(include_top=False, weights="imagenet",
                                                input_shape=(*IMAGE_SIZE, 3), pooling="avg")
    model = tf.keras.Sequential([base, tf.keras.layers.Dropout(0.3), tf.keras.layers.Dense(5, activation="softmax")])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(LR),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(label_smoothing=0.0),
        metrics=["sparse_categorical_accuracy"],
    )
    return model


with strategy.scope():
    model = get_model()

model.summary()
history = model.fit(
    load_dataset("/train_tfrecords/ld_train0*.tfrec"),
    validation_data=load_dataset("/train_tfrecords/ld_train1*.tfrec", training=False),
    steps_per_epoch=15000 // BATCH_SIZE,
    epochs=EPOCHS,
)
