"""Resume an interrupted multi-GPU run from the last saved .keras file."""
import glob
import os

import tensorflow as tf

CKPT_DIR = "/mnt/ckpt/run42"
PER_REPLICA_BATCH = 128

strategy = tf.distribute.MirroredStrategy()
global_batch = PER_REPLICA_BATCH * strategy.num_replicas_in_sync

train_ds = (
    tf.data.Dataset.load("/mnt/data/train")
    .shuffle(20_000)
    .batch(global_batch)
    .prefetch(tf.data.AUTOTUNE)
)

latest = sorted(glob.glob(os.path.join(CKPT_DIR, "epoch_*.keras")))[-1]
initial_epoch = int(latest.split("_")[-1].split(".")[0])
print("resuming from", latest)

model = tf.keras.models.load_model(latest)  # expect: MG104

model.fit(
    train_ds,
    epochs=100,
    initial_epoch=initial_epoch,
    callbacks=[tf.keras.callbacks.ModelCheckpoint(os.path.join(CKPT_DIR, "epoch_{epoch:03d}.keras"))],
)
