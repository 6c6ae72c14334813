"""keras-hub (keras_nlp) classifier fine-tune: preset classifier made before the scope, compile inside."""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
import keras
import keras_hub
import tensorflow as tf
import tensorflow_datasets as tfds

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 16 * strategy.num_replicas_in_sync

imdb_train, imdb_test = tfds.load("imdb_reviews", split=["train", "test"], as_supervised=True, batch_size=BATCH_SIZE)

preprocessor = keras_hub.models.BertTextClassifierPreprocessor.from_preset("bert_tiny_en_uncased", sequence_length=128)
classifier = keras_hub.models.BertTextClassifier.from_preset(  # expect: MG101
    "bert_tiny_en_uncased",
    num_classes=2,
    preprocessor=preprocessor,
)

with strategy.scope():
    classifier.compile(
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=keras.optimizers.AdamW(5e-5),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
        jit_compile=True,
    )

classifier.fit(imdb_train, validation_data=imdb_test, epochs=2)
classifier.predict(["What an amazing movie!", "A total waste of my time."])
