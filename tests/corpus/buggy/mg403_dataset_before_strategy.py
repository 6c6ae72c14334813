"""Shape of ParvinAkhundof/multi-gpu-processing multi-worker-mnist/main.py with the input pipeline
moved above the strategy: the dataset starts TensorFlow, and the strategy then fails with
"Collective ops must be configured at program startup" (measured on two local workers)."""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)

per_worker_batch_size = 64
(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
multi_worker_dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(60000).repeat()

strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: MG403
global_batch_size = per_worker_batch_size * strategy.num_replicas_in_sync
multi_worker_dataset = multi_worker_dataset.batch(global_batch_size)

with strategy.scope():
    multi_worker_model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)),
                                              tf.keras.layers.Dense(10)])
    multi_worker_model.compile(loss="sparse_categorical_crossentropy", optimizer="sgd", metrics=["accuracy"])

multi_worker_model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=100)
