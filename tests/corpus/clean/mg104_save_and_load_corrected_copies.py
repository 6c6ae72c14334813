"""tensorflow/docs distribute/save_and_load: reload under another strategy, plain copies only predict."""
import tensorflow as tf
import tensorflow_datasets as tfds

mirrored_strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64 * mirrored_strategy.num_replicas_in_sync


def get_data():
    datasets = tfds.load(name="mnist", as_supervised=True)

    def scale(image, label):
        return tf.cast(image, tf.float32) / 255.0, label

    train = datasets["train"].map(scale).cache().shuffle(10000).batch(BATCH_SIZE)
    test = datasets["test"].map(scale).batch(BATCH_SIZE)
    return train, test


def get_model():
    with mirrored_strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
            tf.keras.layers.Flatten(),
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

another_strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
with another_strategy.scope():
    restored_keras_model_ds = tf.keras.models.load_model(keras_model_path)
    restored_keras_model_ds.fit(train_dataset, epochs=2)

saved_model_path = "/tmp/tf_save"
tf.saved_model.save(model, saved_model_path)
loaded = tf.saved_model.load(saved_model_path)
inference_func = loaded.signatures["serving_default"]
for batch in eval_dataset.take(1):
    print(inference_func(batch[0]))

predict_dataset = eval_dataset.map(lambda image, label: image)
with mirrored_strategy.scope():
    loaded_ds = tf.saved_model.load(saved_model_path)
    serving_fn = loaded_ds.signatures["serving_default"]
    dist_predict_dataset = mirrored_strategy.experimental_distribute_dataset(predict_dataset)
    for batch in dist_predict_dataset:
        result = mirrored_strategy.run(serving_fn, args=(batch,))
