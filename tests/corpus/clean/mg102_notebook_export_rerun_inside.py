#!/usr/bin/env python
# coding: utf-8
# Exported Colab notebook: the fine-tune cell re-enters the scope, so re-running it is safe.

# In[1]:

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
IMG = (160, 160)

# In[2]:

train_ds = tf.keras.utils.image_dataset_from_directory("cats_and_dogs/train", image_size=IMG, batch_size=BATCH_SIZE)
val_ds = tf.keras.utils.image_dataset_from_directory("cats_and_dogs/validation", image_size=IMG,
                                                     batch_size=BATCH_SIZE)
augment = tf.keras.Sequential([tf.keras.layers.RandomFlip("horizontal"), tf.keras.layers.RandomRotation(0.2)])

# In[3]:

with strategy.scope():
    base_model = tf.keras.applications.MobileNetV2(input_shape=IMG + (3,), include_top=False, weights="imagenet")
    base_model.trainable = False
    inputs = tf.keras.Input(shape=IMG + (3,))
    x = augment(inputs)
    x = tf.keras.applications.mobilenet_v2.preprocess_input(x)
    x = base_model(x, training=False)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    outputs = tf.keras.layers.Dense(1)(x)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), metrics=["accuracy"])

# In[4]:

history = model.fit(train_ds, epochs=10, validation_data=val_ds)

# In[5]:

base_model.trainable = True
for layer in base_model.layers[:100]:
    layer.trainable = False
with strategy.scope():
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.RMSprop(learning_rate=1e-5), metrics=["accuracy"])
history_fine = model.fit(train_ds, epochs=20, initial_epoch=history.epoch[-1], validation_data=val_ds)
