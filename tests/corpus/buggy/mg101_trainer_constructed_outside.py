"""Shape 9.5 (invalid): a trainer class whose `__init__` builds and compiles, created outside the scope.

Style: research repositories that wrap Keras in a `Trainer` object configured
from a dict (e.g. the `TensorflowTrainer(..., strategy=...)` components seen in
ML-platform repos and tfts `KerasTrainer`). `Trainer(config)` runs `__init__`,
which builds the model and compiles it: reported at the construction line.
"""
import tensorflow as tf


class Trainer:
    def __init__(self, config):
        self.config = config
        self.model = self._build()
        self.model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])

    def _build(self):
        base = tf.keras.applications.MobileNetV2(include_top=False, weights=None,
                                                 input_shape=(self.config["size"], self.config["size"], 3))
        x = tf.keras.layers.GlobalAveragePooling2D()(base.output)
        out = tf.keras.layers.Dense(self.config["classes"], activation="softmax")(x)
        return tf.keras.Model(base.input, out)

    def train(self, train_ds, val_ds):
        return self.model.fit(train_ds, validation_data=val_ds, epochs=self.config["epochs"])


def make_dataset(pattern, batch_size):
    files = tf.data.Dataset.list_files(pattern)
    return tf.data.TFRecordDataset(files).batch(batch_size)


if __name__ == "__main__":
    config = {"size": 224, "classes": 5, "epochs": 10}
    strategy = tf.distribute.MirroredStrategy()
    global_batch = 32 * strategy.num_replicas_in_sync
    trainer = Trainer(config)  # expect: MG101, MG102
    trainer.train(make_dataset("train-*.tfrec", global_batch), make_dataset("val-*.tfrec", global_batch))
