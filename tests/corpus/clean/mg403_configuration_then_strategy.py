"""Shape of GPU cluster scripts (e.g. the strategy_fn helpers seen beside tensorflow/models'
distribute_utils): memory growth, seeds and communication options first (none of them starts
TensorFlow's runtime, measured on TensorFlow 2.21), then the strategy, then data and model."""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import tensorflow as tf

for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
tf.random.set_seed(42)
tf.keras.utils.set_random_seed(42)
tf.config.threading.set_inter_op_parallelism_threads(4)
options = tf.distribute.experimental.CommunicationOptions(
    implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)


def strategy_fn():
    print("Creating MultiWorkerMirroredStrategy strategy.")
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


strategy = strategy_fn()
global_batch_size = 64 * strategy.num_replicas_in_sync
(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).repeat().batch(global_batch_size)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28)), tf.keras.layers.Dense(10)])
    model.compile(loss="sparse_categorical_crossentropy", optimizer="sgd")

model.fit(dataset, epochs=3, steps_per_epoch=100)
