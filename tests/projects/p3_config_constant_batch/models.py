import tensorflow as tf
from tensorflow.keras import layers


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = tf.keras.Sequential([layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)])
        self.norm1 = layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = layers.LayerNormalization(epsilon=1e-6)

    def call(self, inputs):
        x = self.norm1(inputs + self.att(inputs, inputs))
        return self.norm2(x + self.ffn(x))


def transformer_classifier(maxlen, vocab_size, cfg):
    inputs = layers.Input(shape=(maxlen,))
    x = layers.Embedding(vocab_size, cfg["embed_dim"])(inputs)
    x = TransformerBlock(cfg["embed_dim"], cfg["num_heads"], cfg["ff_dim"])(x)
    x = layers.GlobalAveragePooling1D()(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    return tf.keras.Model(inputs=inputs, outputs=outputs)
