# Multi-GPU quickstart: strategy created, but the model never enters its scope.
import numpy as np
import tensorflow as tf

x_train = np.random.random((1000, 20)).astype("float32")
y_train = np.random.randint(0, 2, 1000)

strategy = tf.distribute.MirroredStrategy()
print("Replicas:", strategy.num_replicas_in_sync)

model = tf.keras.Sequential([  # expect: MG101
    tf.keras.layers.Dense(64, activation="relu", input_shape=(20,)),
    tf.keras.layers.Dense(2, activation="softmax"),
])
model.compile(optimizer="adam",  # expect: MG102
              loss="sparse_categorical_crossentropy",
              metrics=["accuracy"])

history = model.fit(x_train, y_train, epochs=3, batch_size=32)  # expect: MG201
print(f"Final training accuracy: {history.history['accuracy'][-1]:.4f}")
