"""tensorflow/docs distribute/keras ending: the saved model reloaded without a strategy, checked on small batches."""
import numpy as np
import tensorflow as tf
import tensorflow_datasets as tfds

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64 * strategy.num_replicas_in_sync

datasets = tfds.load(name="mnist", as_supervised=True)


def scale(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


train_dataset = datasets["train"].map(scale).cache().shuffle(10000).batch(BATCH_SIZE)
eval_images = np.stack([image for image, _ in tfds.as_numpy(datasets["test"].map(scale).take(512))])
eval_labels = np.array([label for _, label in tfds.as_numpy(datasets["test"].take(512))])

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(10),
    ])
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
model.fit(train_dataset, epochs=2)
model.save("saved_model.keras")

unreplicated_model = tf.keras.models.load_model("saved_model.keras")
unreplicated_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                           optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
eval_loss, eval_acc = unreplicated_model.evaluate(eval_images, eval_labels, batch_size=64)
sample_logits = unreplicated_model.predict(tf.data.Dataset.from_tensor_slices(eval_images[:16]).batch(8))
print("Eval loss: {}, Eval accuracy: {}".format(eval_loss, eval_acc), sample_logits.argmax(axis=1))
