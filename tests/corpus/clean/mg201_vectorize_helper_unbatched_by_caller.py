"""No finding: a helper batches by 1024 only to vectorize fast; its caller unbatches.

Source shape: the tensorflow/docs word2vec tutorial
(`text_ds.batch(1024).prefetch(AUTOTUNE).map(vectorize_layer).unbatch()`) as a
`vectorize_to_unbatch(file)` helper in the code index, here split so that the helper returns
the batched dataset and the caller unbatches it before the real, scaled batch.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
AUTOTUNE = tf.data.AUTOTUNE
BATCH_SIZE_PER_REPLICA = 256
SEQUENCE_LENGTH = 10

vectorize_layer = tf.keras.layers.TextVectorization(max_tokens=4096, output_mode="int",
                                                    output_sequence_length=SEQUENCE_LENGTH)


def vectorized_lines(path):
    text_ds = tf.data.TextLineDataset(path).filter(lambda line: tf.cast(tf.strings.length(line), bool))
    vectorize_layer.adapt(text_ds.batch(1024))
    return text_ds.batch(1024).prefetch(AUTOTUNE).map(vectorize_layer)


sequences = vectorized_lines("shakespeare.txt").unbatch()
pairs = sequences.map(lambda s: (s[:-1], s[1:]))
train = pairs.shuffle(10000).batch(BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync, drop_remainder=True)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(4096, 64),
        tf.keras.layers.LSTM(64, return_sequences=True),
        tf.keras.layers.Dense(4096),
    ])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(train.prefetch(AUTOTUNE), epochs=2)
