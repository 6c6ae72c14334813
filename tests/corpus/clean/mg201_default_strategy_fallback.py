"""Works on 0, 1 or many GPUs: the default strategy when there is nothing to distribute over."""
import tensorflow as tf

BATCH_PER_REPLICA = 32


def get_strategy():
    gpus = tf.config.list_logical_devices("GPU")
    if len(gpus) > 1:
        return tf.distribute.MirroredStrategy(gpus)
    if len(gpus) == 1:
        return tf.distribute.OneDeviceStrategy("/gpu:0")
    return tf.distribute.get_strategy()


strategy = get_strategy()
batch_size = BATCH_PER_REPLICA * strategy.num_replicas_in_sync

(x_train, y_train), _ = tf.keras.datasets.fashion_mnist.load_data()
ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(60_000).batch(batch_size)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)),
                                 tf.keras.layers.Dense(128, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.Adam(),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
model.fit(ds, epochs=2)
