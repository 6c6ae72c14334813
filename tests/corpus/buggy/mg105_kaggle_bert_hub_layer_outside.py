"""Kaggle "Disaster tweets with BERT from TF Hub" TPU kernel: the hub encoder is created before the scope."""
import numpy as np
import pandas as pd
import tensorflow as tf
import tensorflow_hub as hub
import tokenization

AUTO = tf.data.experimental.AUTOTUNE
try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.experimental.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()

module_url = "https://tfhub.dev/tensorflow/bert_en_uncased_L-12_H-768_A-12/2"
bert_layer = hub.KerasLayer(module_url, trainable=True)  # expect: MG105
vocab_file = bert_layer.resolved_object.vocab_file.asset_path.numpy()
do_lower_case = bert_layer.resolved_object.do_lower_case.numpy()
tokenizer = tokenization.FullTokenizer(vocab_file, do_lower_case)


def bert_encode(texts, max_len=160):
    all_tokens, all_masks, all_segments = [], [], []
    for text in texts:
        tokens = ["[CLS]"] + tokenizer.tokenize(text)[: max_len - 2] + ["[SEP]"]
        pad_len = max_len - len(tokens)
        all_tokens.append(tokenizer.convert_tokens_to_ids(tokens) + [0] * pad_len)
        all_masks.append([1] * len(tokens) + [0] * pad_len)
        all_segments.append([0] * max_len)
    return np.array(all_tokens), np.array(all_masks), np.array(all_segments)


def build_model(bert_layer, max_len=160):
    input_word_ids = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name="input_word_ids")
    input_mask = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name="input_mask")
    segment_ids = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name="segment_ids")
    _, sequence_output = bert_layer([input_word_ids, input_mask, segment_ids])
    out = tf.keras.layers.Dense(1, activation="sigmoid")(sequence_output[:, 0, :])
    model = tf.keras.Model(inputs=[input_word_ids, input_mask, segment_ids], outputs=out)
    model.compile(tf.keras.optimizers.Adam(learning_rate=2e-6), loss="binary_crossentropy", metrics=["accuracy"])
    return model


train = pd.read_csv("/kaggle/input/nlp-getting-started/train.csv")
train_input = bert_encode(train.text.values, max_len=160)
with strategy.scope():
    model = build_model(bert_layer, max_len=160)

model.fit(train_input, train.target.values, validation_split=0.2, epochs=3, batch_size=16 * strategy.num_replicas_in_sync)
