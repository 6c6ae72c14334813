"""keras-io keras_hub image classification guide on several GPUs; the preset is loaded by a helper that is
called before the scope."""
import keras
import keras_hub
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 32 * strategy.num_replicas_in_sync
PRESET = "resnet_50_imagenet"


def make_classifier(num_classes):
    classifier = keras_hub.models.ImageClassifier.from_preset(PRESET, num_classes=num_classes)
    classifier.backbone.trainable = False
    return classifier


train_ds = keras.utils.image_dataset_from_directory("flowers/train", image_size=(224, 224), batch_size=BATCH)
val_ds = keras.utils.image_dataset_from_directory("flowers/val", image_size=(224, 224), batch_size=BATCH)

classifier = make_classifier(num_classes=5)  # expect: MG101

with strategy.scope():
    classifier.compile(
        optimizer=keras.optimizers.Adam(1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

classifier.fit(train_ds, validation_data=val_ds, epochs=5)
classifier.save("flowers_resnet.keras")
