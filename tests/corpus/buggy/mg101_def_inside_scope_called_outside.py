"""Notebook-export habit: the factory is *defined* under the scope and called after the block closes."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync

with strategy.scope():
    def make_model(num_classes=10):
        model = tf.keras.Sequential([
            tf.keras.layers.Input(shape=(32, 32, 3)),
            tf.keras.layers.Conv2D(32, 3, activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(num_classes),
        ])
        model.compile(
            optimizer="adam",
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"],
        )
        return model

    print("factory ready on", strategy.num_replicas_in_sync, "replicas")

(x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data()
train_ds = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).shuffle(50000).batch(GLOBAL_BATCH)

model = make_model()  # expect: MG101, MG102
model.fit(train_ds, epochs=10)
model.evaluate(x_test / 255.0, y_test, batch_size=GLOBAL_BATCH)
