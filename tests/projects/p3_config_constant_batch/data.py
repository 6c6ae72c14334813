"""IMDB pipelines."""
import tensorflow as tf


def make_datasets(batch_size, maxlen):
    (x_train, y_train), (x_val, y_val) = tf.keras.datasets.imdb.load_data(num_words=20_000)
    x_train = tf.keras.utils.pad_sequences(x_train, maxlen=maxlen)
    x_val = tf.keras.utils.pad_sequences(x_val, maxlen=maxlen)
    train = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(25_000).batch(batch_size)
    val = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(batch_size)
    return train, val


def to_dataset(x, y):
    return tf.data.Dataset.from_tensor_slices((x, y))
