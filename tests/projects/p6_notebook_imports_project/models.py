import tensorflow as tf


def build_classifier(num_classes, dropout=0.2):
    base = tf.keras.applications.ResNet50(include_top=False, weights=None, pooling="avg")
    x = tf.keras.layers.Dropout(dropout)(base.output)
    outputs = tf.keras.layers.Dense(num_classes, activation="softmax")(x)
    model = tf.keras.Model(base.input, outputs)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def scoped_classifier(strategy, num_classes):
    with strategy.scope():
        return build_classifier(num_classes)
