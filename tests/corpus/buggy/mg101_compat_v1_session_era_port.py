"""Port of an old TF1 estimator script to Keras + MirroredStrategy; some tf.compat.v1 bits survived."""
import os
import sys

import tensorflow as tf

tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
FLAGS = {"model_dir": "/tmp/census", "train_epochs": 5, "batch_size": 40}

CSV_COLUMNS = ["age", "workclass", "education_num", "hours_per_week", "income_bracket"]
DEFAULTS = [[0], [""], [0], [0], [""]]


def input_fn(path, shuffle, num_epochs):
    def parse_csv(line):
        columns = tf.io.decode_csv(line, record_defaults=DEFAULTS)
        features = dict(zip(CSV_COLUMNS, columns))
        label = tf.equal(features.pop("income_bracket"), ">50K")
        return features, label

    ds = tf.data.TextLineDataset(path).skip(1).map(parse_csv)
    if shuffle:
        ds = ds.shuffle(10_000)
    return ds.repeat(num_epochs).batch(32)  # expect: MG201


def build_wide_deep():
    inputs = {
        "age": tf.keras.Input(shape=(), name="age", dtype=tf.int32),
        "education_num": tf.keras.Input(shape=(), name="education_num", dtype=tf.int32),
        "hours_per_week": tf.keras.Input(shape=(), name="hours_per_week", dtype=tf.int32),
    }
    numeric = tf.keras.layers.Concatenate()([tf.cast(v[:, None], tf.float32) for v in inputs.values()])
    deep = tf.keras.layers.Dense(100, activation="relu")(numeric)
    deep = tf.keras.layers.Dense(50, activation="relu")(deep)
    wide = tf.keras.layers.Dense(1)(numeric)
    logits = tf.keras.layers.Add()([wide, tf.keras.layers.Dense(1)(deep)])
    return tf.keras.Model(inputs=inputs, outputs=logits)


def main(argv):
    del argv
    strategy = tf.compat.v1.distribute.MirroredStrategy()
    tf.compat.v1.logging.info("Number of devices: %d", strategy.num_replicas_in_sync)

    model = build_wide_deep()  # expect: MG101
    model.compile(  # expect: MG102
        optimizer=tf.keras.optimizers.Ftrl(learning_rate=0.1),
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    train = input_fn(os.path.join(FLAGS["model_dir"], "adult.data"), True, FLAGS["train_epochs"])
    test = input_fn(os.path.join(FLAGS["model_dir"], "adult.test"), False, 1)
    model.fit(train, epochs=1)
    loss, acc = model.evaluate(test)
    tf.compat.v1.logging.info("test accuracy %.4f", acc)
    model.save(os.path.join(FLAGS["model_dir"], "keras_export"))


if __name__ == "__main__":
    main(sys.argv)
