"""tensorflow/docs images/segmentation with a custom distributed loop: per-pixel loss averaged over pixels only."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
OUTPUT_CLASSES = 3

with strategy.scope():
    base_model = tf.keras.applications.MobileNetV2(input_shape=[128, 128, 3], include_top=False, weights=None)
    inputs = tf.keras.layers.Input(shape=[128, 128, 3])
    x = base_model(inputs)
    x = tf.keras.layers.Conv2DTranspose(OUTPUT_CLASSES, 3, strides=32, padding="same")(x)
    unet = tf.keras.Model(inputs=inputs, outputs=x)
    optimizer = tf.keras.optimizers.Adam()
    iou = tf.keras.metrics.MeanIoU(num_classes=OUTPUT_CLASSES)


def replica_step(images, masks):
    with tf.GradientTape() as tape:
        logits = unet(images, training=True)
        per_pixel = tf.keras.losses.sparse_categorical_crossentropy(masks, logits, from_logits=True)
        per_image = tf.reduce_mean(per_pixel, axis=[1, 2])
        loss = tf.nn.compute_average_loss(per_image, global_batch_size=BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, unet.trainable_variables), unet.trainable_variables))
    iou.update_state(masks, tf.argmax(logits, axis=-1))
    return loss


@tf.function
def distributed_step(images, masks):
    return strategy.reduce("SUM", strategy.run(replica_step, args=(images, masks)), axis=None)


images = tf.random.uniform((256, 128, 128, 3))
masks = tf.random.uniform((256, 128, 128, 1), maxval=OUTPUT_CLASSES, dtype=tf.int32)
ds = tf.data.Dataset.from_tensor_slices((images, masks)).shuffle(256).batch(BATCH_SIZE)
for epoch in range(5):
    for batch_images, batch_masks in strategy.experimental_distribute_dataset(ds):
        distributed_step(batch_images, batch_masks)
    print(epoch, float(iou.result()))
    iou.reset_state()
