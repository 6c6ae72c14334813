#!/usr/bin/env python
# coding: utf-8
# Exported Kaggle GPU notebook (jupyter nbconvert --to script): stage-two cell rebuilds the model.

# In[1]:

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 32 * strategy.num_replicas_in_sync

# In[2]:


def build_model(trainable_base=False):
    base = tf.keras.applications.EfficientNetB0(include_top=False, weights="imagenet", pooling="avg")
    base.trainable = trainable_base
    return tf.keras.Sequential([base, tf.keras.layers.Dropout(0.2), tf.keras.layers.Dense(1, activation="sigmoid")])


train_ds = tf.keras.utils.image_dataset_from_directory("train", image_size=(224, 224), batch_size=BATCH_SIZE)
val_ds = tf.keras.utils.image_dataset_from_directory("val", image_size=(224, 224), batch_size=BATCH_SIZE)

# In[3]:

with strategy.scope():
    model = build_model()
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["AUC"])
history = model.fit(train_ds, validation_data=val_ds, epochs=5)
model.save_weights("stage1.weights.h5")

# In[4]:

# stage 2: unfreeze everything (re-run this cell to try another learning rate)
model = build_model(trainable_base=True)  # expect: MG101
model.load_weights("stage1.weights.h5")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-5), loss="binary_crossentropy", metrics=["AUC"])  # expect: MG102
history_ft = model.fit(train_ds, validation_data=val_ds, epochs=10)
