"""Kaggle digit-recognizer GPU kernel: arrays fitted with Keras's default batch, test set batched by 512."""
import numpy as np
import pandas as pd
import tensorflow as tf
from tensorflow.keras.layers import Conv2D, Dense, Dropout, Flatten, MaxPool2D
from tensorflow.keras.models import Sequential

gpus = tf.config.experimental.list_physical_devices("GPU")
if len(gpus) > 1:
    strategy = tf.distribute.MirroredStrategy()
else:
    strategy = tf.distribute.get_strategy()

train = pd.read_csv("../input/digit-recognizer/train.csv")
test = pd.read_csv("../input/digit-recognizer/test.csv")
Y_train = tf.keras.utils.to_categorical(train.pop("label").values, num_classes=10)
X_train = (train.values / 255.0).reshape(-1, 28, 28, 1).astype(np.float32)
X_test = (test.values / 255.0).reshape(-1, 28, 28, 1).astype(np.float32)

with strategy.scope():
    model = Sequential()
    model.add(Conv2D(filters=32, kernel_size=(5, 5), padding="Same", activation="relu", input_shape=(28, 28, 1)))
    model.add(MaxPool2D(pool_size=(2, 2)))
    model.add(Dropout(0.25))
    model.add(Flatten())
    model.add(Dense(256, activation="relu"))
    model.add(Dense(10, activation="softmax"))
    model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])

history = model.fit(X_train, Y_train, epochs=30, validation_split=0.1, verbose=2)  # expect: MG201

test_ds = tf.data.Dataset.from_tensor_slices(X_test).batch(512)  # expect: MG201
results = np.argmax(model.predict(test_ds), axis=1)
submission = pd.DataFrame({"ImageId": np.arange(1, len(results) + 1), "Label": results})
submission.to_csv("cnn_mnist_datagen.csv", index=False)
