"""keras-io mnist_convnet written with the functional API; only the `keras.Model(...)` line went under the scope."""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
import numpy as np
import tensorflow as tf
from keras import layers

strategy = tf.distribute.MirroredStrategy()
num_classes = 10
input_shape = (28, 28, 1)
batch_size = 128 * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
x_train = np.expand_dims(x_train.astype("float32") / 255, -1)
x_test = np.expand_dims(x_test.astype("float32") / 255, -1)
y_train = keras.utils.to_categorical(y_train, num_classes)
y_test = keras.utils.to_categorical(y_test, num_classes)

# Calling a layer on a symbolic input builds it: these weights are created here, outside the scope.
inputs = keras.Input(shape=input_shape)
x = layers.Conv2D(32, kernel_size=(3, 3), activation="relu")(inputs)  # expect: MG105
x = layers.MaxPooling2D(pool_size=(2, 2))(x)
x = layers.Conv2D(64, kernel_size=(3, 3), activation="relu")(x)  # expect: MG105
x = layers.MaxPooling2D(pool_size=(2, 2))(x)
x = layers.Flatten()(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(num_classes, activation="softmax")(x)  # expect: MG105

with strategy.scope():
    model = keras.Model(inputs, outputs, name="mnist_convnet")
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])

model.summary()
model.fit(x_train, y_train, batch_size=batch_size, epochs=15, validation_split=0.1)
score = model.evaluate(x_test, y_test, batch_size=batch_size, verbose=0)
print("Test loss:", score[0], "Test accuracy:", score[1])
