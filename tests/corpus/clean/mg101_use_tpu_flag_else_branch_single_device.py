"""Clean (MG101/MG102, issue 17): the `else:` of `if FLAGS.use_tpu:` runs with no strategy.

Shape of the absl TPU-or-local training scripts (google-research style `main(argv)` with a
`--use_tpu` flag; the ASCAD side-channel trainer and the BERT run_classifier family test
`FLAGS.use_tpu` the same way): on a TPU the strategy is made and the model built in its
scope; otherwise the script builds and compiles the same model plainly. No strategy binding
reaches the `else:` branch, so nothing there is judged against one.
"""
import tensorflow as tf
from absl import app, flags

flags.DEFINE_bool("use_tpu", False, "Train on a Cloud TPU.")
flags.DEFINE_string("tpu", "", "TPU address.")
FLAGS = flags.FLAGS


def create_model():
    return tf.keras.Sequential([
        tf.keras.Input(shape=(700, 1)),
        tf.keras.layers.Conv1D(8, 11, activation="relu"),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(256),
    ])


def main(argv):
    del argv
    traces = tf.random.normal([64, 700, 1])
    labels = tf.random.uniform([64], maxval=256, dtype=tf.int32)
    if FLAGS.use_tpu:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=FLAGS.tpu)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        strategy = tf.distribute.TPUStrategy(resolver)
        batch_size = 32 * strategy.num_replicas_in_sync
        with strategy.scope():
            model = create_model()
            model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    else:
        batch_size = 32
        model = create_model()
        model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(traces, labels, batch_size=batch_size, epochs=1)


if __name__ == "__main__":
    app.run(main)
