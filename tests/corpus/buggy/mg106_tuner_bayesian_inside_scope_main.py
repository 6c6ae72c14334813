"""keras-tuner HyperModel subclass searched from main(); tuner made under the scope, no distribution_strategy."""
import argparse

import keras_tuner
import tensorflow as tf


class MLPHyperModel(keras_tuner.HyperModel):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes

    def build(self, hp):
        model = tf.keras.Sequential([tf.keras.layers.Flatten()])
        for i in range(hp.Int("num_layers", 1, 3)):
            model.add(tf.keras.layers.Dense(hp.Int(f"units_{i}", 32, 256, step=32), activation="relu"))
        model.add(tf.keras.layers.Dense(self.num_classes, activation="softmax"))
        model.compile(
            optimizer=tf.keras.optimizers.Adam(hp.Float("lr", 1e-4, 1e-2, sampling="log")),
            loss="sparse_categorical_crossentropy",
            metrics=["accuracy"],
        )
        return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_trials", type=int, default=20)
    parser.add_argument("--batch_per_gpu", type=int, default=128)
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    batch = args.batch_per_gpu * strategy.num_replicas_in_sync
    (x, y), (x_val, y_val) = tf.keras.datasets.mnist.load_data()

    with strategy.scope():
        tuner = keras_tuner.BayesianOptimization(  # expect: MG106
            hypermodel=MLPHyperModel(num_classes=10),
            objective="val_accuracy",
            max_trials=args.max_trials,
            overwrite=True,
            directory="tuning",
        )
    tuner.search(x / 255.0, y, batch_size=batch, epochs=5, validation_data=(x_val / 255.0, y_val))
    tuner.results_summary()


if __name__ == "__main__":
    main()
