"""Shape of bimri/handsonml-III chap19/my_mnist_multiworker_task.py: every worker saves, the chief
to the real path, the others to a temporary directory they remove."""
import os
import tempfile

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()

(X_train, y_train), _ = tf.keras.datasets.mnist.load_data()

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=[28, 28]),
        tf.keras.layers.Dense(units=64, activation="relu"),
        tf.keras.layers.Dense(units=10, activation="softmax"),
    ])
    model.compile(loss="sparse_categorical_crossentropy", optimizer="sgd", metrics=["accuracy"])

model.fit(X_train, y_train, epochs=10, batch_size=32 * strategy.num_replicas_in_sync)

if resolver.task_id == 0:
    model.save("my_mnist_multiworker_model", save_format="tf")
else:
    tmpdir = tempfile.mkdtemp()
    model.save(tmpdir, save_format="tf")
    tf.io.gfile.rmtree(tmpdir)
