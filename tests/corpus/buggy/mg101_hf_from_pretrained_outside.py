"""MG101 widened (invalid): Hugging Face `TFAutoModel*` construction outside the scope.

Style: Kaggle Jigsaw-multilingual TPU kernels (`transformer_layer =
TFAutoModel.from_pretrained(MODEL)` then `build_model(transformer_layer)`), here with
the `from_pretrained` call hoisted above `with strategy.scope():`, and
huggingface/transformers language-modeling-tpu/run_mlm.py's
`TFAutoModelForMaskedLM.from_config(config)`. Construction, not a reload: MG101.
"""
import tensorflow as tf
from transformers import AutoConfig, AutoTokenizer, TFAutoModel, TFAutoModelForMaskedLM

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()

MODEL = "jplu/tf-xlm-roberta-large"
MAX_LEN = 192
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
tokenizer = AutoTokenizer.from_pretrained(MODEL)


def build_model(transformer, max_len=512):
    input_word_ids = tf.keras.layers.Input(shape=(max_len,), dtype=tf.int32, name="input_word_ids")
    sequence_output = transformer(input_word_ids)[0]
    out = tf.keras.layers.Dense(1, activation="sigmoid")(sequence_output[:, 0, :])
    model = tf.keras.Model(inputs=input_word_ids, outputs=out)
    model.compile(tf.keras.optimizers.Adam(learning_rate=1e-5), loss="binary_crossentropy", metrics=["accuracy"])
    return model


transformer_layer = TFAutoModel.from_pretrained(MODEL)  # expect: MG101
config = AutoConfig.from_pretrained("roberta-base")
mlm = TFAutoModelForMaskedLM.from_config(config)  # expect: MG101

with strategy.scope():
    model = build_model(transformer_layer, max_len=MAX_LEN)
    mlm.compile(optimizer="adam")

train_dataset = tf.data.Dataset.load("jigsaw_encoded").repeat().shuffle(2048).batch(BATCH_SIZE)
model.fit(train_dataset, steps_per_epoch=1000, epochs=2)
