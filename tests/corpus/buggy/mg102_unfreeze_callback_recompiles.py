"""Transfer learning with a "gradual unfreezing" callback that recompiles the model during fit."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
IMG_SIZE = (160, 160)
BATCH_SIZE = 32 * strategy.num_replicas_in_sync

train_ds = tf.keras.utils.image_dataset_from_directory("cats_and_dogs/train", image_size=IMG_SIZE, batch_size=BATCH_SIZE)
val_ds = tf.keras.utils.image_dataset_from_directory("cats_and_dogs/validation", image_size=IMG_SIZE, batch_size=BATCH_SIZE)


class UnfreezeBackbone(tf.keras.callbacks.Callback):
    """Unfreezes the top of the backbone at `at_epoch` and recompiles with a lower learning rate."""

    def __init__(self, backbone, at_epoch=5, fine_tune_at=100):
        super().__init__()
        self.backbone, self.at_epoch, self.fine_tune_at = backbone, at_epoch, fine_tune_at

    def on_epoch_begin(self, epoch, logs=None):
        if epoch != self.at_epoch:
            return
        self.backbone.trainable = True
        for layer in self.backbone.layers[: self.fine_tune_at]:
            layer.trainable = False
        self.model.compile(  # expect: MG102
            optimizer=tf.keras.optimizers.RMSprop(learning_rate=1e-5),
            loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
            metrics=["accuracy"],
        )


with strategy.scope():
    base_model = tf.keras.applications.MobileNetV2(input_shape=IMG_SIZE + (3,), include_top=False, weights="imagenet")
    base_model.trainable = False
    inputs = tf.keras.Input(shape=IMG_SIZE + (3,))
    x = tf.keras.applications.mobilenet_v2.preprocess_input(inputs)
    x = tf.keras.layers.GlobalAveragePooling2D()(base_model(x, training=False))
    outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Dropout(0.2)(x))
    model = tf.keras.Model(inputs, outputs)
    model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=1e-4),
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

model.fit(train_ds, validation_data=val_ds, epochs=15, callbacks=[UnfreezeBackbone(base_model, at_epoch=5)])
