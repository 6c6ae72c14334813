"""Shape of bimri/handsonml-III chap19/my_mnist_multiworker_task.py with its else branch dropped:
only worker 0 saves, while saving under MultiWorkerMirroredStrategy needs every worker."""
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
print(f"Starting task {resolver.task_type} #{resolver.task_id}")

(X_train, y_train), (X_test, y_test) = tf.keras.datasets.mnist.load_data()

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Reshape([28, 28, 1], input_shape=[28, 28], dtype=tf.uint8),
        tf.keras.layers.Rescaling(scale=1 / 255),
        tf.keras.layers.Conv2D(filters=64, kernel_size=7, activation="relu", padding="same"),
        tf.keras.layers.MaxPooling2D(pool_size=2),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(units=10, activation="softmax"),
    ])
    model.compile(loss="sparse_categorical_crossentropy", optimizer=tf.keras.optimizers.SGD(learning_rate=1e-2),
                  metrics=["accuracy"])

model.fit(X_train, y_train, epochs=10, batch_size=32 * strategy.num_replicas_in_sync)

if resolver.task_id == 0:
    model.save("my_mnist_multiworker_model", save_format="tf")  # expect: MG402
