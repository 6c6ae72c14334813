"""MG105 (invalid): `hub.KerasLayer` (weights loaded on construction) made outside the TPU scope.

Style: Kaggle "Disaster Tweets / Jigsaw with BERT from TF Hub" kernels:
`bert_layer = hub.KerasLayer(module_url, trainable=True)` at top level, then
`model = build_model(bert_layer, max_len=160)` under `with strategy.scope():`.
The hub layer's variables are created outside: MG105 at its construction.
"""
import tensorflow as tf
import tensorflow_hub as hub

try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    tf.config.experimental_connect_to_cluster(tpu)
    tf.tpu.experimental.initialize_tpu_system(tpu)
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.get_strategy()

BATCH_SIZE = 16 * strategy.num_replicas_in_sync
module_url = "https://tfhub.dev/tensorflow/bert_en_uncased_L-12_H-768_A-12/4"
bert_layer = hub.KerasLayer(module_url, trainable=True)  # expect: MG105


def build_model(encoder, max_len=160):
    word_ids = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name="input_word_ids")
    mask = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name="input_mask")
    segment_ids = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name="input_type_ids")
    outputs = encoder({"input_word_ids": word_ids, "input_mask": mask, "input_type_ids": segment_ids})
    out = tf.keras.layers.Dense(1, activation="sigmoid")(outputs["pooled_output"][:, :])
    model = tf.keras.Model(inputs=[word_ids, mask, segment_ids], outputs=out)
    model.compile(tf.keras.optimizers.Adam(learning_rate=2e-6), loss="binary_crossentropy", metrics=["accuracy"])
    return model


with strategy.scope():
    model = build_model(bert_layer, max_len=160)

train = tf.data.Dataset.load("tweets_encoded").shuffle(2048).batch(BATCH_SIZE)
model.fit(train, epochs=3)
