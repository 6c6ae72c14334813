"""Text classifier: the vectorizer is adapted on the host and used only in the input pipeline."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync
MAX_TOKENS = 20_000

raw_train = tf.keras.utils.text_dataset_from_directory("aclImdb/train", batch_size=GLOBAL_BATCH)
vectorizer = tf.keras.layers.TextVectorization(max_tokens=MAX_TOKENS, output_sequence_length=250)
vectorizer.adapt(raw_train.unbatch().map(lambda text, label: text).batch(1024))

train_ds = raw_train.map(lambda text, label: (vectorizer(text), label)).prefetch(tf.data.AUTOTUNE)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(MAX_TOKENS + 1, 64),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(1),
    ])
    model.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0.0)])
model.fit(train_ds, epochs=3)
