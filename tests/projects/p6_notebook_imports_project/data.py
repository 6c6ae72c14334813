import tensorflow as tf
import tensorflow_datasets as tfds


def flowers(batch_size, split="train"):
    ds = tfds.load("tf_flowers", split=split, as_supervised=True)
    ds = ds.map(lambda x, y: (tf.image.resize(x, (224, 224)) / 255.0, y))
    return ds.shuffle(1000).batch(batch_size).prefetch(tf.data.AUTOTUNE)
