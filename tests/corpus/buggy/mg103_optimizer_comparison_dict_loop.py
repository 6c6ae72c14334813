"""Blog-style optimizer comparison on GPUs: optimizer objects in a dict, one model per entry built in the scope."""
import matplotlib.pyplot as plt
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 128 * strategy.num_replicas_in_sync
EPOCHS = 10

OPTIMIZERS = {
    "sgd_momentum": tf.keras.optimizers.SGD(learning_rate=0.01, momentum=0.9),  # expect: MG103
    "adam": tf.keras.optimizers.Adam(learning_rate=1e-3),  # expect: MG103
    "rmsprop": "rmsprop",
}

(x_train, y_train), (x_val, y_val) = tf.keras.datasets.fashion_mnist.load_data()
x_train, x_val = x_train / 255.0, x_val / 255.0


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Input(shape=(28, 28)),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(10),
    ])


histories = {}
for name, optimizer in OPTIMIZERS.items():
    tf.keras.backend.clear_session()
    with strategy.scope():
        model = build_model()
        model.compile(
            optimizer=optimizer,
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"],
        )
    histories[name] = model.fit(x_train, y_train, batch_size=BATCH, epochs=EPOCHS, validation_data=(x_val, y_val))

for name, history in histories.items():
    plt.plot(history.history["val_accuracy"], label=name)
plt.legend()
plt.savefig("optimizers.png")
