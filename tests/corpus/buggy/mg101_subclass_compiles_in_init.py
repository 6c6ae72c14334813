"""Shape 9.12 (invalid): a `keras.Model` subclass that compiles itself in `__init__`, created outside.

Style: TF-Recommenders / course code where the model class wires its own
optimizer and loss (`self.compile(...)` at the end of `__init__`). Created outside
the scope, both the build and the compile happen there: MG101 and MG102 at the
construction.
"""
import tensorflow as tf
from tensorflow import keras


class TabularClassifier(keras.Model):
    def __init__(self, hidden=(128, 64), n_classes=2, lr=1e-3):
        super().__init__()
        self.blocks = [keras.layers.Dense(h, activation="relu") for h in hidden]
        self.head = keras.layers.Dense(n_classes)
        self.compile(optimizer="adam",
                     loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                     metrics=["accuracy"])

    def call(self, inputs, training=False):
        x = inputs
        for block in self.blocks:
            x = block(x)
        return self.head(x)


strategy = tf.distribute.MirroredStrategy()
batch_size = 1024 * strategy.num_replicas_in_sync
train = tf.data.Dataset.load("adult_train").shuffle(50_000).batch(batch_size)

clf = TabularClassifier(hidden=(256, 128))  # expect: MG101, MG102

clf.fit(train, epochs=20)
