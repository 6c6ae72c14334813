"""Segmentation-style custom loop (tensorflow/docs images/segmentation, distributed): per-pixel losses
are averaged over the pixels per image, then over the batch axis by hand."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 8 * strategy.num_replicas_in_sync

with strategy.scope():
    inputs = tf.keras.Input((128, 128, 3))
    x = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")(inputs)
    outputs = tf.keras.layers.Conv2D(3, 1)(x)
    unet = tf.keras.Model(inputs, outputs)
    optimizer = tf.keras.optimizers.Adam()
    pixel_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    iou = tf.keras.metrics.MeanIoU(num_classes=3)


def replica_step(images, masks):
    with tf.GradientTape() as tape:
        logits = unet(images, training=True)
        per_image = tf.reduce_mean(pixel_loss(masks, logits), axis=[1, 2])
        loss = tf.reduce_mean(per_image, axis=0)  # expect: MG301
    grads = tape.gradient(loss, unet.trainable_variables)
    optimizer.apply_gradients(zip(grads, unet.trainable_variables))
    iou.update_state(masks, tf.argmax(logits, axis=-1))
    return loss


@tf.function
def train_step(images, masks):
    losses = strategy.run(replica_step, args=(images, masks))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


images = tf.random.uniform([64, 128, 128, 3])
masks = tf.random.uniform([64, 128, 128, 1], maxval=3, dtype=tf.int32)
dist = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((images, masks)).batch(GLOBAL_BATCH))
for epoch in range(3):
    for images_b, masks_b in dist:
        train_step(images_b, masks_b)
    print(epoch, iou.result().numpy())
    iou.reset_state()
