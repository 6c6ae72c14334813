"""Experiment runner exposing the strategy scope as a property (`with self.scope:`)."""
import tensorflow as tf


class ExperimentRunner:
    def __init__(self, per_replica_batch=128):
        gpus = tf.config.list_logical_devices("GPU")
        self.strategy = tf.distribute.MirroredStrategy() if len(gpus) > 1 else tf.distribute.get_strategy()
        self.global_batch = per_replica_batch * self.strategy.num_replicas_in_sync
        self.model = None

    @property
    def scope(self):
        return self.strategy.scope()

    def build(self):
        with self.scope:
            self.model = tf.keras.Sequential([
                tf.keras.layers.Input(shape=(32, 32, 3)),
                tf.keras.layers.Conv2D(64, 3, activation="relu"),
                tf.keras.layers.GlobalAveragePooling2D(),
                tf.keras.layers.Dense(100),
            ])
            self.model.compile(
                optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9),
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=["accuracy"],
            )
        return self

    def run(self, epochs=10):
        (x, y), (x_test, y_test) = tf.keras.datasets.cifar100.load_data()
        train = tf.data.Dataset.from_tensor_slices((x / 255.0, y)).shuffle(50_000).batch(self.global_batch)
        test = tf.data.Dataset.from_tensor_slices((x_test / 255.0, y_test)).batch(self.global_batch)
        self.model.fit(train, validation_data=test, epochs=epochs)


if __name__ == "__main__":
    ExperimentRunner().build().run()
