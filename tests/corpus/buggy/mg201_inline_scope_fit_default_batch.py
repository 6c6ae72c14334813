"""tensorflow/docs style: everything inside an inline `MirroredStrategy().scope()`, then
`fit(x_train, y_train)` on arrays with no `batch_size`: Keras batches by its default 32, a
global batch that does not scale with the replicas (issue 9, shape 9).
"""
import tensorflow as tf

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
x_train = x_train / 255.0

with tf.distribute.MirroredStrategy().scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])

model.fit(x_train, y_train, epochs=5)  # expect: MG201
model.save("mnist_dense.keras")
