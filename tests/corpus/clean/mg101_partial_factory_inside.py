"""Shape 9.11 (valid): partial factories created anywhere, called inside the scope.

Style: k-fold Kaggle TPU kernels that prepare `model_fn = partial(get_model,
...)` once at module level and call it inside `with strategy.scope():` per fold.
"""
from functools import partial

import tensorflow as tf


def get_model(backbone_name, dropout, n_classes):
    backbone = getattr(tf.keras.applications, backbone_name)(include_top=False, weights=None,
                                                             input_shape=(256, 256, 3), pooling="avg")
    x = tf.keras.layers.Dropout(dropout)(backbone.output)
    model = tf.keras.Model(backbone.input, tf.keras.layers.Dense(n_classes, activation="softmax")(x))
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 32 * strategy.num_replicas_in_sync
model_fn = partial(get_model, "EfficientNetB0", 0.3)

for fold in range(5):
    train = tf.data.Dataset.load(f"folds/train_{fold}").batch(BATCH_SIZE)
    valid = tf.data.Dataset.load(f"folds/valid_{fold}").batch(BATCH_SIZE)
    tf.keras.backend.clear_session()
    with strategy.scope():
        model = model_fn(n_classes=5)
    model.fit(train, validation_data=valid, epochs=8)
    model.save(f"fold_{fold}.keras")
