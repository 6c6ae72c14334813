"""Audio keyword spotting.  The author wrapped model code in a name scope,
believing it was the distribution scope."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync

train_ds = tf.data.Dataset.load("speech_commands/train").batch(GLOBAL_BATCH)
val_ds = tf.data.Dataset.load("speech_commands/val").batch(GLOBAL_BATCH)

with tf.name_scope("kws_model"):
    model = tf.keras.Sequential([  # expect: MG101
        tf.keras.layers.Input(shape=(124, 129, 1)),
        tf.keras.layers.Resizing(32, 32),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.Conv2D(64, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Dropout(0.25),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(8),
    ])
    model.compile(  # expect: MG102
        optimizer=tf.keras.optimizers.Adam(),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

model.fit(train_ds, validation_data=val_ds, epochs=10,
          callbacks=tf.keras.callbacks.EarlyStopping(verbose=1, patience=2))
