"""Model created in scope; weights restored and checkpoints managed outside it.
load_weights, tf.train.Checkpoint and model.save are not model construction."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.applications.ResNet50(weights=None, classes=200)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.9),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])

model.load_weights("warmstart/resnet50_tiny_imagenet.weights.h5")

ckpt = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
manager = tf.train.CheckpointManager(ckpt, "ckpts/resnet50", max_to_keep=3)
if manager.latest_checkpoint:
    ckpt.restore(manager.latest_checkpoint)


class SaveEveryEpoch(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        manager.save(checkpoint_number=epoch)


train = tf.data.Dataset.load("tiny_imagenet_train").shuffle(10_000).batch(GLOBAL_BATCH)
val = tf.data.Dataset.load("tiny_imagenet_val").batch(GLOBAL_BATCH)
model.fit(train, validation_data=val, epochs=90, callbacks=[SaveEveryEpoch()])
model.save("resnet50_final.keras")
model.export("serving/resnet50")
