"""The model factory enters the strategy scope itself."""
import tensorflow as tf


def make_model(strategy, num_classes, learning_rate=1e-3):
    with strategy.scope():
        base = tf.keras.applications.EfficientNetB0(include_top=False, weights=None, pooling="avg")
        outputs = tf.keras.layers.Dense(num_classes)(base.output)
        model = tf.keras.Model(base.input, outputs)
        model.compile(
            optimizer=tf.keras.optimizers.AdamW(learning_rate),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=[tf.keras.metrics.SparseCategoricalAccuracy(name="acc")],
        )
    return model
