"""MG101 widened (invalid): `from_preset(...)` models built outside the scope (keras_hub, keras_nlp, keras_cv).

Style: keras-io keras_hub getting-started and keras-cv guides
(`classifier = keras_hub.models.BertClassifier.from_preset("bert_base_en_uncased",
num_classes=2)`, `keras_cv.models.ImageClassifier.from_preset(...)`,
`keras_nlp.models.GPT2CausalLM.from_preset(...)`), moved to a multi-GPU script
where only `compile` was put under the scope. Tokenizers and preprocessors from
presets hold no weights and are not reported.
"""
import keras
import keras_cv
import keras_hub
import keras_nlp
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
batch_size = 16 * strategy.num_replicas_in_sync

preprocessor = keras_hub.models.BertTextClassifierPreprocessor.from_preset("bert_base_en_uncased", sequence_length=128)
classifier = keras_hub.models.BertTextClassifier.from_preset(  # expect: MG101
    "bert_base_en_uncased",
    num_classes=2,
    preprocessor=preprocessor,
)
gpt2 = keras_nlp.models.GPT2CausalLM.from_preset("gpt2_base_en")  # expect: MG101
backbone = keras_cv.models.EfficientNetV2Backbone.from_preset("efficientnetv2_b0_imagenet")  # expect: MG101

with strategy.scope():
    classifier.compile(optimizer=keras.optimizers.AdamW(5e-5),
                       loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                       metrics=["accuracy"])
    gpt2.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    image_model = keras_cv.models.ImageClassifier(backbone=backbone, num_classes=10)
    image_model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

imdb_train = tf.data.Dataset.load("imdb_train").batch(batch_size)
classifier.fit(imdb_train, epochs=1)
