"""Two input pipelines from a blog post: `.batch(batch_size=64)` keyword, and a size divided by the replicas."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 512
per_replica = GLOBAL_BATCH_SIZE // strategy.num_replicas_in_sync

(x_train, y_train), (x_val, y_val) = tf.keras.datasets.mnist.load_data()
x_train, x_val = x_train[..., None] / 255.0, x_val[..., None] / 255.0

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000)
train_ds = train_ds.batch(batch_size=64, drop_remainder=True)  # expect: MG201
val_ds = tf.data.Dataset.from_tensor_slices((x_val, y_val))
val_ds = val_ds.batch(per_replica)  # expect: MG202

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28, 1)),
        tf.keras.layers.Dense(512, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    model.compile(
        optimizer=tf.keras.optimizers.Adam(),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

model.fit(train_ds, validation_data=val_ds, epochs=5)
