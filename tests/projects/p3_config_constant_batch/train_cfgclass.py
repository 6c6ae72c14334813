"""Second entry point: the batch size comes from a config class in configs.py."""
import tensorflow as tf

from configs import DataConfig
from models import transformer_classifier

strategy = tf.distribute.MirroredStrategy()
cfg = DataConfig()
(x, y), _ = tf.keras.datasets.imdb.load_data(num_words=20_000)
x = tf.keras.utils.pad_sequences(x, maxlen=200)
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(cfg.shuffle_buffer).batch(cfg.batch_size)  # expect: MG201
with strategy.scope():
    model = transformer_classifier(200, 20_000, {"embed_dim": 32, "num_heads": 2, "ff_dim": 32})
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(ds, epochs=1)
