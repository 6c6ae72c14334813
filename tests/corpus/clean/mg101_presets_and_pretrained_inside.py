"""MG101 widened (valid): hub/preset/pretrained models built inside the scope; tokenizers and configs outside.

Style: keras-io keras_hub TPU fine-tuning examples (`with strategy.scope():
classifier = keras_hub.models.TextClassifier.from_preset(...)`), Kaggle Jigsaw TPU
kernels (`with strategy.scope(): transformer_layer = TFAutoModel.from_pretrained(MODEL)`),
with `AutoTokenizer.from_pretrained`, `AutoConfig.from_pretrained` and a preset
tokenizer/preprocessor made at top level (no weights).
"""
import keras
import keras_hub
import tensorflow as tf
from transformers import AutoConfig, AutoTokenizer, TFAutoModel

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
MODEL = "distilbert-base-multilingual-cased"

tokenizer = AutoTokenizer.from_pretrained(MODEL)
config = AutoConfig.from_pretrained(MODEL)
hub_tokenizer = keras_hub.models.Tokenizer.from_preset("bert_base_en_uncased")
preprocessor = keras_hub.models.TextClassifierPreprocessor.from_preset("bert_base_en_uncased", sequence_length=128)

with strategy.scope():
    transformer_layer = TFAutoModel.from_pretrained(MODEL, config=config)
    ids = tf.keras.layers.Input(shape=(128,), dtype=tf.int32)
    cls = transformer_layer(ids)[0][:, 0, :]
    model = tf.keras.Model(ids, tf.keras.layers.Dense(1, activation="sigmoid")(cls))
    model.compile(tf.keras.optimizers.Adam(1e-5), loss="binary_crossentropy")

    classifier = keras_hub.models.TextClassifier.from_preset("bert_base_en_uncased", num_classes=2,
                                                             preprocessor=preprocessor)
    classifier.compile(optimizer=keras.optimizers.AdamW(5e-5),
                       loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

encoded = tf.data.Dataset.load("encoded_comments").batch(BATCH_SIZE)
model.fit(encoded, epochs=2)
classifier.fit(tf.data.Dataset.load("raw_comments").batch(BATCH_SIZE), epochs=1)
