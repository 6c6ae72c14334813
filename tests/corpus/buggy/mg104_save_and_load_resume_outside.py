"""tensorflow/docs distribute/save_and_load: the reloaded model is trained again outside any scope."""
import tensorflow as tf
import tensorflow_datasets as tfds

mirrored_strategy = tf.distribute.MirroredStrategy()


def get_data():
    datasets = tfds.load(name="mnist", as_supervised=True)
    mnist_train, mnist_test = datasets["train"], datasets["test"]
    BUFFER_SIZE = 10000
    BATCH_SIZE_PER_REPLICA = 64
    BATCH_SIZE = BATCH_SIZE_PER_REPLICA * mirrored_strategy.num_replicas_in_sync

    def scale(image, label):
        return tf.cast(image, tf.float32) / 255.0, label

    train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
    eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)
    return train_dataset, eval_dataset


def get_model():
    with mirrored_strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
            tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(64, activation="relu"),
            tf.keras.layers.Dense(10),
        ])
        model.compile(
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            optimizer=tf.keras.optimizers.Adam(),
            metrics=[tf.metrics.SparseCategoricalAccuracy()],
        )
        return model


model = get_model()
train_dataset, eval_dataset = get_data()
model.fit(train_dataset, epochs=2)

keras_model_path = "/tmp/keras_save.keras"
model.save(keras_model_path)

restored_keras_model = tf.keras.models.load_model(keras_model_path)  # expect: MG104
restored_keras_model.fit(train_dataset, epochs=2)
restored_keras_model.evaluate(eval_dataset)
