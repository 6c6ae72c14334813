"""A custom layer that uses tf.init_scope() to lift a lookup table out of tf.function.
tf.init_scope() is not a strategy scope; the model itself is built under the strategy."""
import tensorflow as tf


class HashedVocab(tf.keras.layers.Layer):
    def __init__(self, vocab_path, num_oov=1, **kwargs):
        super().__init__(**kwargs)
        self.vocab_path = vocab_path
        self.num_oov = num_oov
        self._table = None

    def build(self, input_shape):
        with tf.init_scope():
            initializer = tf.lookup.TextFileInitializer(
                self.vocab_path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
            self._table = tf.lookup.StaticVocabularyTable(initializer, self.num_oov)
        super().build(input_shape)

    def call(self, inputs):
        return self._table.lookup(inputs)


strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 512 * strategy.num_replicas_in_sync

with strategy.scope():
    tokens = tf.keras.Input(shape=(None,), dtype=tf.string)
    ids = HashedVocab("vocab.txt")(tokens)
    x = tf.keras.layers.Embedding(50_001, 64)(ids)
    x = tf.keras.layers.GlobalAveragePooling1D()(x)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(tokens, out)
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])

ds = tf.data.Dataset.load("reviews_tokens").batch(GLOBAL_BATCH)
model.fit(ds, epochs=3)
