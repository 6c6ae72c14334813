"""Shape 9.7 (invalid): constant batch sizes stored on attributes, passed as literals, or given as defaults.

Style: TFX trainer module files (tensorflow/tfx tfx/examples/penguin/penguin_utils_keras.py,
`_input_fn(file_pattern, data_accessor, tf_transform_output, batch_size=200)`) mixed
with a data-loader class as in course repositories (`self.batch_size = 64`). Each
size is a fixed number that reaches a dataset trained under the strategy:
- `self.batch_size = 64` then `.batch(self.batch_size)`: MG201 at the `.batch(` line;
- `make_dataset(x, y, 32)`: MG201 at the call where the literal is written;
- `input_fn(..., batch_size=1024)` default, every caller relying on it: MG201 at the
  `.batch(batch_size)` line inside the helper.
"""
import numpy as np
import tensorflow as tf


def parse_line(line):
    fields = tf.io.decode_csv(line, record_defaults=[[0.0]] * 4 + [[0]])
    return tf.stack(fields[:4]), fields[4]


class CsvLoader:
    def __init__(self, path):
        self.path = path
        self.batch_size = 64

    def dataset(self):
        ds = tf.data.TextLineDataset(self.path).skip(1).map(parse_line)
        return ds.batch(self.batch_size)  # expect: MG201


def make_dataset(x, y, batch_size):
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x)).batch(batch_size)


def input_fn(file_pattern, batch_size=1024):
    files = tf.data.Dataset.list_files(file_pattern)
    ds = tf.data.TFRecordDataset(files, compression_type="GZIP")
    return ds.batch(batch_size)  # expect: MG201


def run_fn(train_files, eval_files, serving_dir):
    strategy = tf.distribute.MirroredStrategy()
    train_ds = input_fn(train_files)
    eval_ds = input_fn(eval_files)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(3)])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(train_ds, validation_data=eval_ds, epochs=5)

    x = np.random.rand(1000, 4).astype("float32")
    y = np.random.randint(0, 3, 1000)
    model.fit(make_dataset(x, y, 32), epochs=1)  # expect: MG201
    model.fit(CsvLoader("extra.csv").dataset(), epochs=1)
    model.save(serving_dir)
