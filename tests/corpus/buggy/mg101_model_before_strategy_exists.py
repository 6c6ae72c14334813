"""Fashion-MNIST classifier; distribution was bolted on after the model code."""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
import tensorflow as tf

(x_train, y_train), (x_test, y_test) = keras.datasets.fashion_mnist.load_data()
x_train = x_train[..., np.newaxis].astype("float32") / 255.0
x_test = x_test[..., np.newaxis].astype("float32") / 255.0

model = keras.Sequential(  # expect: MG101
    [
        keras.Input(shape=(28, 28, 1)),
        layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(10, activation="softmax"),
    ]
)
model.summary()

strategy = tf.distribute.MirroredStrategy()
global_batch = 128 * strategy.num_replicas_in_sync

with strategy.scope():
    model.compile(loss="sparse_categorical_crossentropy", optimizer="adam", metrics=["accuracy"])

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000).batch(global_batch)
test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(global_batch)

model.fit(train_ds, epochs=15, validation_data=test_ds)
score = model.evaluate(test_ds, verbose=0)
print("Test loss:", score[0])
print("Test accuracy:", score[1])
