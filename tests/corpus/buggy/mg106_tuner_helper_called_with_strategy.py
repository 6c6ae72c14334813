"""MG106 (invalid): a tuner made by a helper that the function holding the strategy calls.

The TFX module of clean/mg106_tfx_tuner_fn_beside_mirrored_run_fn.py rearranged the way
tensorflow/tfx's penguin example is often adapted into one script: `main()` makes the
MirroredStrategy, then calls the module's `tuner_fn(...)` and runs the search itself. The
strategy now reaches the tuner (through its caller), and the tuner gets no
`distribution_strategy=`: every trial trains on one replica. The strategy itself is only read for
the replica count, so MG107 reports it too (as on s2_b17).
"""
import keras_tuner
import tensorflow as tf


def _make_keras_model(hparams):
    inputs = tf.keras.Input(shape=(4,))
    d = inputs
    for _ in range(int(hparams.Int("num_layers", 1, 3))):
        d = tf.keras.layers.Dense(8, activation="relu")(d)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3)(d))
    model.compile(optimizer=tf.keras.optimizers.Adam(hparams.Float("learning_rate", 1e-4, 1e-2)),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def tuner_fn(working_dir):
    return keras_tuner.RandomSearch(  # expect: MG106
        _make_keras_model, max_trials=2, objective="val_accuracy",
        directory=working_dir, project_name="penguin_tuning", overwrite=True)


def main():
    strategy = tf.distribute.MirroredStrategy()  # expect: MG107
    x = tf.random.normal([64, 4])
    y = tf.random.uniform([64], maxval=3, dtype=tf.int32)
    tuner = tuner_fn("/tmp/penguin")
    tuner.search(x, y, epochs=1, validation_split=0.25, batch_size=8 * strategy.num_replicas_in_sync)


if __name__ == "__main__":
    main()
