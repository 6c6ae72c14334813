"""tensorflow/models-style absl entry point (flags, app.run(main)); compile moved after the scope block."""
from absl import app, flags, logging
import tensorflow as tf

FLAGS = flags.FLAGS
flags.DEFINE_integer("batch_size", 64, "Per-replica batch size.")
flags.DEFINE_float("learning_rate", 0.01, "Learning rate.")
flags.DEFINE_string("model_dir", "/tmp/model", "Where to write checkpoints.")
flags.DEFINE_enum("distribution_strategy", "mirrored", ["mirrored", "one_device"], "Strategy.")


def get_strategy(name):
    if name == "one_device":
        return tf.distribute.OneDeviceStrategy("/gpu:0")
    return tf.distribute.MirroredStrategy()


def create_model():
    return tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(512, activation="relu"),
                                tf.keras.layers.Dense(10)])


def main(_):
    strategy = get_strategy(FLAGS.distribution_strategy)
    batch_size = FLAGS.batch_size * strategy.num_replicas_in_sync
    logging.info("global batch %d", batch_size)
    (x, y), (xt, yt) = tf.keras.datasets.mnist.load_data()
    train = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(60000).batch(batch_size)
    test = tf.data.Dataset.from_tensor_slices((xt / 255.0, yt)).batch(batch_size)

    with strategy.scope():
        model = create_model()

    model.compile(  # expect: MG102
        optimizer=tf.keras.optimizers.SGD(FLAGS.learning_rate, momentum=0.9),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["sparse_categorical_accuracy"])
    model.fit(train, validation_data=test, epochs=5,
              callbacks=[tf.keras.callbacks.ModelCheckpoint(FLAGS.model_dir + "/ckpt-{epoch}.weights.h5",
                                                            save_weights_only=True)])


if __name__ == "__main__":
    app.run(main)
