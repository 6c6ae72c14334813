"""tensorflow/text classify_text_with_bert (TPU section): hub layers created by the factory called in the scope."""
import tensorflow as tf
import tensorflow_hub as hub
import tensorflow_text  # noqa: F401  (registers the preprocessing ops)

tfhub_handle_preprocess = "https://tfhub.dev/tensorflow/bert_en_uncased_preprocess/3"
tfhub_handle_encoder = "https://tfhub.dev/tensorflow/small_bert/bert_en_uncased_L-4_H-512_A-8/1"

if tf.config.list_logical_devices("TPU"):
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    strategy = tf.distribute.TPUStrategy(resolver)
elif tf.config.list_logical_devices("GPU"):
    strategy = tf.distribute.MirroredStrategy()
else:
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")

batch_size = 32 * strategy.num_replicas_in_sync
preprocessor = hub.KerasLayer(tfhub_handle_preprocess)
train_ds = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=batch_size, seed=42)
train_ds = train_ds.map(lambda text, label: (preprocessor(text), label)).prefetch(tf.data.AUTOTUNE)


def build_classifier_model():
    encoder_inputs = dict(
        input_word_ids=tf.keras.layers.Input(shape=(128,), dtype=tf.int32),
        input_mask=tf.keras.layers.Input(shape=(128,), dtype=tf.int32),
        input_type_ids=tf.keras.layers.Input(shape=(128,), dtype=tf.int32),
    )
    encoder = hub.KerasLayer(tfhub_handle_encoder, trainable=True, name="BERT_encoder")
    net = encoder(encoder_inputs)["pooled_output"]
    net = tf.keras.layers.Dropout(0.1)(net)
    net = tf.keras.layers.Dense(1, activation=None, name="classifier")(net)
    return tf.keras.Model(encoder_inputs, net)


with strategy.scope():
    classifier_model = build_classifier_model()
    classifier_model.compile(
        optimizer=tf.keras.optimizers.AdamW(3e-5),
        loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[tf.keras.metrics.BinaryAccuracy()],
    )
classifier_model.fit(train_ds, epochs=5)
