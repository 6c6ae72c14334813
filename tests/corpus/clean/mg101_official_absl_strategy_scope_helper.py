"""MNIST trainer in the tensorflow/models legacy style: absl flags, distribute_utils, a bound strategy scope."""
from absl import app
from absl import flags
from absl import logging
import tensorflow as tf
import tensorflow_datasets as tfds

from official.common import distribute_utils
from official.utils.flags import core as flags_core

FLAGS = flags.FLAGS


def build_model():
    image = tf.keras.layers.Input(shape=(28, 28, 1))
    y = tf.keras.layers.Conv2D(32, 5, padding="same", activation="relu")(image)
    y = tf.keras.layers.MaxPooling2D(pool_size=(2, 2), padding="same")(y)
    y = tf.keras.layers.Conv2D(32, 5, padding="same", activation="relu")(y)
    y = tf.keras.layers.MaxPooling2D(pool_size=(2, 2), padding="same")(y)
    y = tf.keras.layers.Flatten()(y)
    y = tf.keras.layers.Dense(1024, activation="relu")(y)
    y = tf.keras.layers.Dropout(0.4)(y)
    probs = tf.keras.layers.Dense(10, activation="softmax")(y)
    return tf.keras.models.Model(image, probs, name="mnist")


def decode_image(example, label):
    return tf.cast(example, tf.float32) / 255.0, label


def run(flags_obj, datasets_override=None):
    strategy = distribute_utils.get_distribution_strategy(
        distribution_strategy=flags_obj.distribution_strategy,
        num_gpus=flags_obj.num_gpus,
        tpu_address=flags_obj.tpu)
    strategy_scope = distribute_utils.get_strategy_scope(strategy)

    mnist = tfds.builder("mnist", data_dir=flags_obj.data_dir)
    if flags_obj.download:
        mnist.download_and_prepare()
    mnist_train, mnist_test = datasets_override or mnist.as_dataset(
        split=["train", "test"], as_supervised=True)
    train_input = mnist_train.cache().repeat().shuffle(buffer_size=50000).batch(flags_obj.batch_size)
    eval_input = mnist_test.cache().repeat().batch(flags_obj.batch_size)

    with strategy_scope:
        lr_schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.05, decay_steps=100000, decay_rate=0.96)
        optimizer = tf.keras.optimizers.SGD(learning_rate=lr_schedule)
        model = build_model()
        model.compile(
            optimizer=optimizer,
            loss="sparse_categorical_crossentropy",
            metrics=["sparse_categorical_accuracy"])

    num_train_examples = mnist.info.splits["train"].num_examples
    train_steps = num_train_examples // flags_obj.batch_size
    callbacks = [
        tf.keras.callbacks.ModelCheckpoint(flags_obj.model_dir + "/model.ckpt-{epoch:04d}", save_weights_only=True),
        tf.keras.callbacks.TensorBoard(log_dir=flags_obj.model_dir),
    ]
    history = model.fit(
        train_input.map(decode_image),
        epochs=flags_obj.train_epochs,
        steps_per_epoch=train_steps,
        callbacks=callbacks,
        validation_steps=mnist.info.splits["test"].num_examples // flags_obj.batch_size,
        validation_data=eval_input.map(decode_image),
        validation_freq=flags_obj.epochs_between_evals)
    export_path = flags_obj.model_dir + "/saved_model"
    model.save(export_path, include_optimizer=False)
    return history.history


def define_mnist_flags():
    flags_core.define_base(clean=True, num_gpu=True, train_epochs=True, epochs_between_evals=True)
    flags_core.define_device()
    flags_core.define_distribution()
    flags.DEFINE_bool("download", True, "Whether to download data to `--data_dir`.")
    FLAGS.set_default("batch_size", 1024)


def main(_):
    stats = run(flags.FLAGS)
    logging.info("Run stats:\n%s", stats)


if __name__ == "__main__":
    logging.set_verbosity(logging.INFO)
    define_mnist_flags()
    app.run(main)
