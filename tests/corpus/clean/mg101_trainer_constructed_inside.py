"""Shape 9.5 (valid): the trainer is constructed inside the scope; its `__init__` makes everything.

Style: same Trainer-object pattern (tfts `KerasTrainer` run inside
`with strategy.scope():` in examples/run_gpu_tpus.py). `__init__` creates the
model, an AdamW object and metric objects; all of it runs under the scope.
"""
import tensorflow as tf
from tensorflow import keras


class SegmentationTrainer:
    def __init__(self, num_classes, learning_rate):
        inputs = keras.Input(shape=(128, 128, 3))
        x = keras.layers.Conv2D(32, 3, padding="same", activation="relu")(inputs)
        x = keras.layers.Conv2D(32, 3, padding="same", activation="relu")(x)
        outputs = keras.layers.Conv2D(num_classes, 1)(x)
        self.model = keras.Model(inputs, outputs)
        self.optimizer = keras.optimizers.AdamW(learning_rate, weight_decay=1e-4)
        self.iou = keras.metrics.MeanIoU(num_classes=num_classes, sparse_y_pred=False)
        self.model.compile(optimizer=self.optimizer,
                           loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                           metrics=[self.iou])

    def fit(self, train_ds, epochs):
        return self.model.fit(train_ds, epochs=epochs)


def main():
    strategy = tf.distribute.MirroredStrategy()
    batch = 8 * strategy.num_replicas_in_sync
    images = tf.random.uniform((64, 128, 128, 3))
    masks = tf.random.uniform((64, 128, 128, 1), maxval=3, dtype=tf.int32)
    train_ds = tf.data.Dataset.from_tensor_slices((images, masks)).batch(batch)
    with strategy.scope():
        trainer = SegmentationTrainer(num_classes=3, learning_rate=3e-4)
    trainer.fit(train_ds, epochs=2)


if __name__ == "__main__":
    main()
