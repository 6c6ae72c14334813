import tensorflow as tf


def segmentation_ds(images, masks, batch_size):
    return tf.data.Dataset.from_tensor_slices((images, masks)).shuffle(256).batch(batch_size)
