"""Quick experiment script: model factory written as a lambda, called before the scope."""
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
BATCH = 128 * strategy.num_replicas_in_sync

build = lambda units: keras.Sequential([  # noqa: E731
    keras.layers.Input(shape=(784,)),
    keras.layers.Dense(units, activation="relu"),
    keras.layers.Dense(10),
])

(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0

model = build(512)  # expect: MG101
with strategy.scope():
    model.compile(
        optimizer="adam",
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
model.fit(x_train, y_train, batch_size=BATCH, epochs=5)
model.save("mlp.keras")
print(model.evaluate(x_train[:1000], y_train[:1000], batch_size=BATCH))
