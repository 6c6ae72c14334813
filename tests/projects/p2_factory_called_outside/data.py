import tensorflow as tf


def load_split(directory, batch_size, image_size=(64, 64)):
    return tf.keras.utils.image_dataset_from_directory(
        directory, image_size=image_size, batch_size=batch_size, label_mode="int")
