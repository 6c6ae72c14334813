"""MG101, MG102 (invalid): both branches of `if FLAGS.use_tpu:` make a strategy, and the model is built after them.

Shape of the ASCAD side-channel trainer (absl flags, `if FLAGS.use_tpu: ... strategy =
tf.distribute.experimental.TPUStrategy(resolver) else: strategy = tf.distribute.get_strategy()`,
then the replica count is logged) with the model then built and compiled outside
`strategy.scope()`. A strategy exists on every path to the model, so it is judged: on the TPU
path it trains with unmirrored variables (or fails at `fit`, FACTS.md).
"""
import tensorflow as tf
from absl import app, flags

flags.DEFINE_bool("use_tpu", False, "Train on a Cloud TPU.")
FLAGS = flags.FLAGS


def main(argv):
    del argv
    if FLAGS.use_tpu:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        strategy = tf.distribute.TPUStrategy(resolver)
    else:
        strategy = tf.distribute.get_strategy()
    print("Number of accelerators:", strategy.num_replicas_in_sync)
    model = tf.keras.Sequential([  # expect: MG101
        tf.keras.Input(shape=(700,)),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(256),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")  # expect: MG102
    traces = tf.random.normal([64, 700])
    labels = tf.random.uniform([64], maxval=256, dtype=tf.int32)
    model.fit(traces, labels, batch_size=16 * strategy.num_replicas_in_sync, epochs=1)


if __name__ == "__main__":
    app.run(main)
