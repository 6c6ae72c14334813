"""Preemptible-VM training script: a host-side epoch counter with its own small checkpoint (outside the
scope, never touched by the replicas); the model's weights checkpoint is made in the scope."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync
EPOCHS = 10

epoch = tf.Variable(0, trainable=False, dtype=tf.int64, name="epoch")  # expect: MG105
progress = tf.train.Checkpoint(epoch=epoch)
progress_manager = tf.train.CheckpointManager(progress, "/mnt/disk/progress", max_to_keep=1)
progress.restore(progress_manager.latest_checkpoint)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((40,)), tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    weights = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
weights_manager = tf.train.CheckpointManager(weights, "/mnt/disk/weights", max_to_keep=2)
weights.restore(weights_manager.latest_checkpoint)

x = tf.random.normal([5000, 40])
y = tf.random.uniform([5000], maxval=3, dtype=tf.int32)
train_ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(5000).batch(GLOBAL_BATCH)

while int(epoch.numpy()) < EPOCHS:
    model.fit(train_ds, epochs=int(epoch.numpy()) + 1, initial_epoch=int(epoch.numpy()), verbose=2)
    weights_manager.save()
    epoch.assign_add(1)
    progress_manager.save()
