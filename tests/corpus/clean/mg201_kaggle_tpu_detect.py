import tensorflow as tf

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()
print("REPLICAS:", strategy.num_replicas_in_sync)

AUTO = tf.data.AUTOTUNE
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
IMAGE_SIZE = [512, 512]


def get_training_dataset(filenames):
    ds = tf.data.TFRecordDataset(filenames, num_parallel_reads=AUTO)
    ds = ds.map(lambda r: tf.io.parse_single_example(r, {"image": tf.io.FixedLenFeature([], tf.string)}))
    return ds.repeat().shuffle(2048).batch(BATCH_SIZE).prefetch(AUTO)


with strategy.scope():
    pretrained = tf.keras.applications.Xception(weights="imagenet", include_top=False, input_shape=[*IMAGE_SIZE, 3])
    pretrained.trainable = False
    model = tf.keras.Sequential([pretrained, tf.keras.layers.GlobalAveragePooling2D(),
                                 tf.keras.layers.Dense(104, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"], steps_per_execution=16)
