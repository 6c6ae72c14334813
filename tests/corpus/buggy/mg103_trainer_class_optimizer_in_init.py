"""Trainer class from a course repo: the strategy is an attribute, the optimizer made before its scope."""
import tensorflow as tf
from tensorflow.keras import mixed_precision


class Trainer:
    def __init__(self, config):
        self.config = config
        self.strategy = tf.distribute.MirroredStrategy()
        self.global_batch = config["batch_per_replica"] * self.strategy.num_replicas_in_sync
        if config.get("mixed_precision"):
            mixed_precision.set_global_policy("mixed_float16")
        base = tf.keras.optimizers.SGD(config["lr"], momentum=0.9)  # expect: MG103
        self.optimizer = mixed_precision.LossScaleOptimizer(base)  # expect: MG103
        with self.strategy.scope():
            self.model = self._build_model()
            self.model.compile(
                optimizer=self.optimizer,
                loss=tf.keras.losses.CategoricalCrossentropy(label_smoothing=0.1),
                metrics=["accuracy"],
            )

    def _build_model(self):
        inputs = tf.keras.Input(shape=(224, 224, 3))
        backbone = tf.keras.applications.MobileNetV2(include_top=False, weights=None, input_tensor=inputs)
        x = tf.keras.layers.GlobalAveragePooling2D()(backbone.output)
        outputs = tf.keras.layers.Dense(self.config["classes"], activation="softmax", dtype="float32")(x)
        return tf.keras.Model(inputs, outputs)

    def dataset(self, files):
        ds = tf.data.TFRecordDataset(files).map(self._parse, num_parallel_calls=tf.data.AUTOTUNE)
        return ds.shuffle(4096).batch(self.global_batch, drop_remainder=True).prefetch(tf.data.AUTOTUNE)

    def _parse(self, record):
        features = tf.io.parse_single_example(record, {"image": tf.io.FixedLenFeature([], tf.string),
                                                       "label": tf.io.FixedLenFeature([], tf.int64)})
        image = tf.image.resize(tf.io.decode_jpeg(features["image"], channels=3), (224, 224)) / 255.0
        return image, tf.one_hot(features["label"], self.config["classes"])

    def train(self, train_files, epochs):
        return self.model.fit(self.dataset(train_files), epochs=epochs)


if __name__ == "__main__":
    trainer = Trainer({"batch_per_replica": 64, "lr": 0.05, "classes": 10, "mixed_precision": True})
    trainer.train(tf.io.gfile.glob("gs://bucket/train-*.tfrec"), epochs=5)
