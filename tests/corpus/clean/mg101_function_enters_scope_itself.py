import tensorflow as tf
from tensorflow import keras


def create_compiled_model(strategy, input_dim, lr=1e-3):
    """Builds the model under the given strategy; safe to call from anywhere."""
    with strategy.scope():
        model = keras.Sequential([
            keras.layers.Input(shape=(input_dim,)),
            keras.layers.Dense(128, activation="relu"),
            keras.layers.Dense(1),
        ])
        model.compile(optimizer=keras.optimizers.Adam(lr), loss="mse",
                      metrics=[keras.metrics.RootMeanSquaredError()])
    return model


def load_for_finetuning(strategy, path):
    with strategy.scope():
        return keras.models.load_model(path)


strategy = tf.distribute.MirroredStrategy()
batch_size = 32 * strategy.num_replicas_in_sync

(x_train, y_train), (x_test, y_test) = keras.datasets.california_housing.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(2048).batch(batch_size)

model = create_compiled_model(strategy, x_train.shape[1])
model.fit(train_ds, epochs=30)
model.save("housing.keras")

resumed = load_for_finetuning(strategy, "housing.keras")
resumed.fit(train_ds, epochs=5)
