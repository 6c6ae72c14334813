"""MG105 (valid): `hub.KerasLayer` constructed inside the TPU scope.

Style: tensorflow/text docs classify_text_with_bert.ipynb on TPU
(`with strategy.scope(): classifier_model = build_classifier_model()` where the
builder creates `hub.KerasLayer(tfhub_handle_encoder, trainable=True)`), and the
preprocessing model created outside, which holds no variables and is applied in
`tf.data`.
"""
import tensorflow as tf
import tensorflow_hub as hub
import tensorflow_text  # noqa: F401  (registers ops used by the preprocessor)

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

ENCODER = "https://tfhub.dev/tensorflow/small_bert/bert_en_uncased_L-4_H-512_A-8/2"
PREPROCESS = "https://tfhub.dev/tensorflow/bert_en_uncased_preprocess/3"
batch_size = 32 * strategy.num_replicas_in_sync

preprocess = hub.KerasLayer(PREPROCESS)
train_ds = tf.data.Dataset.load("sst2_text").batch(batch_size).map(lambda t, y: (preprocess(t), y))


def build_classifier_model():
    encoder_inputs = {k: tf.keras.Input(shape=(128,), dtype=tf.int32, name=k)
                      for k in ("input_word_ids", "input_mask", "input_type_ids")}
    encoder = hub.KerasLayer(ENCODER, trainable=True, name="BERT_encoder")
    pooled = encoder(encoder_inputs)["pooled_output"]
    out = tf.keras.layers.Dense(1)(tf.keras.layers.Dropout(0.1)(pooled))
    return tf.keras.Model(encoder_inputs, out)


with strategy.scope():
    classifier_model = build_classifier_model()
    classifier_model.compile(optimizer=tf.keras.optimizers.AdamW(3e-5),
                             loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                             metrics=[tf.keras.metrics.BinaryAccuracy()])

classifier_model.fit(train_ds, epochs=5)
