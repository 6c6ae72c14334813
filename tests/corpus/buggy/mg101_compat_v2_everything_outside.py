# Legacy research code migrated with tf_upgrade_v2; strategy added later.
from __future__ import absolute_import, division, print_function

import tensorflow.compat.v2 as tf

tf.enable_v2_behavior()

FLAGS_epochs = 8
strategy = tf.distribute.MirroredStrategy()


def input_fn(split):
    ds = tf.data.Dataset.load("/data/svhn_" + split)
    ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y))
    return ds


train_input = input_fn("train").shuffle(4096).batch(128)  # expect: MG201

net = tf.keras.Sequential()  # expect: MG101
net.add(tf.keras.layers.Conv2D(48, 5, padding="same", activation="relu"))
net.add(tf.keras.layers.MaxPool2D())
net.add(tf.keras.layers.Conv2D(64, 5, padding="same", activation="relu"))
net.add(tf.keras.layers.GlobalAveragePooling2D())
net.add(tf.keras.layers.Dense(10))
net.compile(optimizer=tf.keras.optimizers.SGD(0.01, momentum=0.9),  # expect: MG102
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"])

net.fit(train_input, epochs=FLAGS_epochs)
