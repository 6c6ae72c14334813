"""Shape 9.3 (valid): star imports that supply layer names and a batch constant.

Style: Kaggle kernels that start with `from tensorflow.keras.layers import *` and
read settings from a local `config.py` with `from config import *`. Everything is
built inside the scope; `GLOBAL_BATCH_SIZE` comes from the star import (unknown
value, not judged), `Dense`/`Conv2D` come from the layers star import.
"""
import tensorflow as tf
from tensorflow.keras.layers import *
from tensorflow.keras.models import Model

from config import *

strategy = tf.distribute.MirroredStrategy()

train_ds = tf.data.TFRecordDataset(TRAIN_FILES).map(parse_example).batch(GLOBAL_BATCH_SIZE)

with strategy.scope():
    inp = Input(shape=(IMG_SIZE, IMG_SIZE, 3))
    x = Conv2D(32, 3, activation="relu")(inp)
    x = MaxPooling2D()(x)
    x = Conv2D(64, 3, activation="relu")(x)
    x = GlobalAveragePooling2D()(x)
    x = Dropout(0.2)(x)
    out = Dense(NUM_CLASSES, activation="softmax")(x)
    model = Model(inp, out)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

model.fit(train_ds, epochs=EPOCHS)
