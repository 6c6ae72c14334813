"""Shape 9.6 (invalid): a conditional scope expression, with compile left after the block.

Style: the `ctx = strategy.scope() if strategy else contextlib.nullcontext()`
idiom of multi/single-GPU scripts (Hugging Face TF examples and course repos use
variants of it). The model is built inside `with ctx:`, but compile happens
after the block, outside the scope: MG102 only.
"""
import contextlib

import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
strategy = tf.distribute.MirroredStrategy() if len(gpus) > 1 else None
replicas = strategy.num_replicas_in_sync if strategy else 1

ctx = strategy.scope() if strategy else contextlib.nullcontext()
with ctx:
    model = tf.keras.applications.ResNet50(weights=None, classes=10, input_shape=(64, 64, 3))

model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9),  # expect: MG102
              loss="sparse_categorical_crossentropy",
              metrics=["accuracy"])

train_ds = tf.data.Dataset.load("imagenette_64/train").batch(64 * replicas)
model.fit(train_ds, epochs=30)
