"""Shape of ParvinAkhundof/multi-gpu-processing multi-worker-mnist/main.py written against Keras 3
(`import keras`): fit() and evaluate() under MultiWorkerMirroredStrategy fail on Keras 3.15
(keras-team/keras#20585)."""
import json
import os

import keras
import tensorflow as tf

tf_config = json.loads(os.environ["TF_CONFIG"])
num_workers = len(tf_config["cluster"]["worker"])
strategy = tf.distribute.MultiWorkerMirroredStrategy()
global_batch_size = 64 * num_workers

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
train = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(60000).repeat().batch(global_batch_size)
test = tf.data.Dataset.from_tensor_slices((x_test / 255.0, y_test)).batch(global_batch_size)

with strategy.scope():
    model = keras.Sequential([keras.Input((28, 28)), keras.layers.Flatten(), keras.layers.Dense(10)])
    model.compile(loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=keras.optimizers.SGD(learning_rate=0.001), metrics=["accuracy"])

model.fit(train, epochs=3, steps_per_epoch=70)  # expect: MG404
model.evaluate(test)  # expect: MG404
