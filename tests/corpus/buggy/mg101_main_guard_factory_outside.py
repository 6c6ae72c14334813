"""Shape 9.1 (invalid): an `if __name__ == "__main__":` program calls its factory outside the scope.

Style: standalone CIFAR-10 script as in keras-io examples/vision and the many
"train.py" files that end with a `__main__` guard (e.g. the tensorflow/docs
distribute/keras.ipynb code exported to a script). The factory compiles with a
string optimizer and is called *before* the `with` block, so MG101 and MG102 are
reported at the call inside the guard, not inside the factory's body.
"""
import argparse

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def build_and_compile(num_classes=10):
    model = keras.Sequential([
        keras.Input(shape=(32, 32, 3)),
        layers.Conv2D(32, 3, activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(64, 3, activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(num_classes),
    ])
    model.compile(optimizer="adam",
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def load_data(global_batch):
    (x_train, y_train), _ = keras.datasets.cifar10.load_data()
    ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train))
    return ds.shuffle(10_000).batch(global_batch).prefetch(tf.data.AUTOTUNE)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    print("replicas:", strategy.num_replicas_in_sync)
    global_batch = 64 * strategy.num_replicas_in_sync

    model = build_and_compile()  # expect: MG101, MG102
    with strategy.scope():
        model.summary()

    model.fit(load_data(global_batch), epochs=args.epochs)
    model.save("cifar10.keras")
