"""Config-driven Keras fit script (YAML config, `getattr(tf.keras.optimizers, cfg["optimizer"]["name"])`),
optimizer instantiated while the config is parsed, before the scope."""
import tensorflow as tf
import yaml

CONFIG = yaml.safe_load("""
optimizer: {name: Adam, learning_rate: 0.001}
train: {per_replica_batch_size: 32, epochs: 5}
""")

strategy = tf.distribute.MirroredStrategy()
opt_cfg = dict(CONFIG["optimizer"])
optimizer_cls = getattr(tf.keras.optimizers, opt_cfg.pop("name"))
optimizer = optimizer_cls(**opt_cfg)  # expect: MG103
batch_size = CONFIG["train"]["per_replica_batch_size"] * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(60000).batch(batch_size)
test_ds = tf.data.Dataset.from_tensor_slices((x_test / 255.0, y_test)).batch(batch_size)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(128, activation="relu"),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer=optimizer,
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])

model.fit(train_ds, validation_data=test_ds, epochs=CONFIG["train"]["epochs"])
