"""Shape 9.9 (valid): every batch spelling fed a global batch derived from the replica count.

Style: Kaggle TPU notebooks (`BATCH_SIZE = 16 * strategy.num_replicas_in_sync`) that
use `padded_batch`, keras-cv's `dense_to_ragged_batch(global_batch)` (keras-cv
examples/training/object_detection/pascal_voc/retinanet.py), Keras utils dataset
builders and Hugging Face `prepare_tf_dataset`, plus `fit` on arrays with an
explicit scaled `batch_size=`.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()

BATCH_SIZE = 16 * strategy.num_replicas_in_sync

tokens = tf.data.Dataset.load("tokenized_pairs").padded_batch(BATCH_SIZE, padded_shapes=([None], [None]))
boxes = tf.data.Dataset.load("boxes").apply(tf.data.experimental.dense_to_ragged_batch(BATCH_SIZE))
ragged = tf.data.Dataset.load("boxes").ragged_batch(BATCH_SIZE, drop_remainder=True)
images = keras.utils.image_dataset_from_directory("flowers", image_size=(192, 192), batch_size=BATCH_SIZE)
windows = keras.utils.timeseries_dataset_from_array(np.arange(10_000.0), None, sequence_length=24,
                                                    batch_size=BATCH_SIZE)

with strategy.scope():
    model = keras.Sequential([keras.layers.Embedding(30_000, 64), keras.layers.GlobalAveragePooling1D(),
                              keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    cnn = keras.Sequential([keras.layers.Rescaling(1 / 255), keras.layers.Conv2D(8, 3),
                            keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(104)])
    cnn.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

model.fit(tokens, epochs=2)
cnn.fit(images, epochs=2)
x = np.random.rand(2048, 20).astype("float32")
y = np.random.rand(2048, 1).astype("float32")
with strategy.scope():
    tab = keras.Sequential([keras.layers.Dense(1)])
    tab.compile(optimizer="sgd", loss="mse")
tab.fit(x, y, batch_size=BATCH_SIZE, epochs=3)
