"""MG105 (invalid): a Dense head built (called) outside and an epoch variable tracked by the checkpoint.

Style: transfer-learning scripts that probe a shared head with a dummy batch
before building the real model (`head(tf.zeros((1, 128)))`), and custom loops
that keep `epoch = tf.Variable(0)` in `tf.train.Checkpoint(model=..., optimizer=...,
epoch=epoch)` as in the TF checkpoint guide. Both are created outside the scope.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

head = tf.keras.layers.Dense(5, name="head")  # expect: MG105
print("head output:", head(tf.zeros((1, 128))).shape)
embed = tf.keras.layers.Dense(128, name="embed")  # expect: MG105
embed.build((None, 1280))
epoch = tf.Variable(0, trainable=False, name="epoch")  # expect: MG105

with strategy.scope():
    backbone = tf.keras.applications.MobileNetV2(include_top=False, pooling="avg", weights=None)
    features = backbone.output
    model = tf.keras.Model(backbone.input, head(embed(features)))
    optimizer = tf.keras.optimizers.Adam(1e-4)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)
    model.compile(optimizer=optimizer, loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

manager = tf.train.CheckpointManager(checkpoint, "ckpts", max_to_keep=3)
checkpoint.restore(manager.latest_checkpoint)
train = tf.data.Dataset.load("flowers_224").batch(GLOBAL_BATCH)
while int(epoch) < 10:
    model.fit(train, epochs=1)
    epoch.assign_add(1)
    manager.save()
