"""U-Net segmentation on the Oxford-IIIT pets set; the model class offers a preset constructor."""
import tensorflow as tf
import tensorflow_datasets as tfds

PRESETS = {
    "tiny": (16, 32, 64),
    "base": (32, 64, 128, 256),
}


class UNet(tf.keras.Model):
    def __init__(self, filters, num_classes=3, **kwargs):
        super().__init__(**kwargs)
        self.down = [tf.keras.layers.Conv2D(f, 3, strides=2, padding="same", activation="relu") for f in filters]
        self.up = [tf.keras.layers.Conv2DTranspose(f, 3, strides=2, padding="same", activation="relu")
                   for f in reversed(filters)]
        self.head = tf.keras.layers.Conv2D(num_classes, 1)

    @classmethod
    def from_preset(cls, name, num_classes=3):
        return cls(PRESETS[name], num_classes=num_classes, name=f"unet_{name}")

    def call(self, x, training=False):
        skips = []
        for layer in self.down:
            x = layer(x)
            skips.append(x)
        for layer, skip in zip(self.up, reversed(skips)):
            x = layer(tf.concat([x, skip], axis=-1) if x.shape[1] == skip.shape[1] else x)
        return self.head(x)


def load_image(datapoint):
    image = tf.image.resize(datapoint["image"], (128, 128)) / 255.0
    mask = tf.image.resize(datapoint["segmentation_mask"], (128, 128), method="nearest") - 1
    return image, mask


strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

dataset, info = tfds.load("oxford_iiit_pet:4.*.*", with_info=True)
train = dataset["train"].map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
test = dataset["test"].map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
train_batches = train.cache().shuffle(1000).batch(GLOBAL_BATCH).repeat().prefetch(tf.data.AUTOTUNE)
test_batches = test.batch(GLOBAL_BATCH)

model = UNet.from_preset("base")  # expect: MG101
with strategy.scope():
    model.compile(
        optimizer="adam",
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

steps = info.splits["train"].num_examples // GLOBAL_BATCH
model.fit(train_batches, epochs=20, steps_per_epoch=steps, validation_data=test_batches)
model.save_weights("unet.weights.h5")
