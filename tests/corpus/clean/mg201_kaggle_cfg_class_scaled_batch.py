"""Kaggle kernel with a `class CFG:` block whose batch is set from the strategy after detection."""
import tensorflow as tf


class CFG:
    seed = 2024
    per_replica_batch = 16
    batch_size = None
    epochs = 5
    lr = 3e-4


try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver.connect()
    strategy = tf.distribute.TPUStrategy(tpu)
except ValueError:
    strategy = tf.distribute.MirroredStrategy()
CFG.batch_size = CFG.per_replica_batch * strategy.num_replicas_in_sync
print("global batch:", CFG.batch_size)

(x_train, y_train), (x_val, y_val) = tf.keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(50_000, seed=CFG.seed)
train_ds = train_ds.batch(CFG.batch_size, drop_remainder=True).prefetch(tf.data.AUTOTUNE)
val_ds = tf.data.Dataset.from_tensor_slices((x_val / 255.0, y_val)).batch(CFG.batch_size)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(32, 32, 3)),
        tf.keras.layers.Conv2D(64, 3, activation="relu"),
        tf.keras.layers.GlobalAveragePooling2D(),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(CFG.lr), loss="sparse_categorical_crossentropy", metrics=["accuracy"])

model.fit(train_ds, validation_data=val_ds, epochs=CFG.epochs)
