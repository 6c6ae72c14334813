"""Single-GPU MNIST baseline: no tf.distribute anywhere, so batch sizes and model
placement are not a distribution concern here."""
import tensorflow as tf
from tensorflow import keras

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train, x_test = x_train / 255.0, x_test / 255.0

optimizer = keras.optimizers.Adam(1e-3)
metric = keras.metrics.SparseCategoricalAccuracy()

model = keras.Sequential([
    keras.layers.Flatten(input_shape=(28, 28)),
    keras.layers.Dense(128, activation="relu"),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(10),
])
model.compile(optimizer=optimizer,
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=[metric])

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(10000).batch(32)
model.fit(train_ds, epochs=5)
model.evaluate(x_test, y_test, batch_size=256, verbose=2)
model.save("mnist.keras")

restored = keras.models.load_model("mnist.keras")
clone = keras.models.clone_model(restored)
print(restored.predict(x_test[:5]).argmax(axis=-1))
