"""Subclassed model built under the strategy; custom *layers* and keras.Input are only
layer objects and may be made anywhere."""
import keras
import tensorflow as tf
from keras import layers


class PatchEmbed(layers.Layer):
    def __init__(self, patch, dim, **kwargs):
        super().__init__(**kwargs)
        self.proj = layers.Conv2D(dim, patch, strides=patch)

    def call(self, x):
        x = self.proj(x)
        return tf.reshape(x, (tf.shape(x)[0], -1, x.shape[-1]))


class TinyViT(keras.Model):
    def __init__(self, embed, num_classes=10, depth=4, **kwargs):
        super().__init__(**kwargs)
        self.embed = embed
        self.blocks = [layers.MultiHeadAttention(num_heads=4, key_dim=32) for _ in range(depth)]
        self.norm = layers.LayerNormalization()
        self.pool = layers.GlobalAveragePooling1D()
        self.head = layers.Dense(num_classes)

    def call(self, x, training=False):
        x = self.embed(x)
        for attn in self.blocks:
            x = x + attn(x, x, training=training)
        return self.head(self.pool(self.norm(x)))


patch_layer = PatchEmbed(patch=4, dim=128)
image_input = keras.Input(shape=(32, 32, 3))

strat = tf.distribute.MirroredStrategy()
global_batch = 128 * strat.num_replicas_in_sync

with strat.scope():
    vit = TinyViT(patch_layer)
    vit.compile(optimizer=keras.optimizers.AdamW(3e-4), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=[keras.metrics.SparseCategoricalAccuracy(name="acc")])

(x_train, y_train), _ = keras.datasets.cifar10.load_data()
vit.fit(x_train / 255.0, y_train, batch_size=global_batch, epochs=30)
