"""Single/multi-GPU script that picks its strategy from the GPU count; TFP-style `tfk` aliases."""
import numpy as np
import tensorflow as tf

tfk = tf.keras
tfkl = tfk.layers

gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)

if len(gpus) > 1:
    strategy = tf.distribute.MirroredStrategy()
elif len(gpus) == 1:
    strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
else:
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
print(f"Training on {strategy.num_replicas_in_sync} device(s)")

(x_train, y_train), (x_test, y_test) = tfk.datasets.fashion_mnist.load_data()
x_train = x_train[..., None].astype(np.float32) / 255.0
x_test = x_test[..., None].astype(np.float32) / 255.0

train_ds = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60000)
train_ds = train_ds.batch(256).prefetch(tf.data.AUTOTUNE)  # expect: MG201
test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test))
test_ds = test_ds.batch(256 * strategy.num_replicas_in_sync)

with strategy.scope():
    model = tfk.Sequential([
        tfkl.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
        tfkl.MaxPooling2D(),
        tfkl.Flatten(),
        tfkl.Dense(128, activation="relu"),
        tfkl.Dense(10),
    ])

model.compile(  # expect: MG102
    optimizer="adam",
    loss=tfk.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
model.fit(train_ds, epochs=10, validation_data=test_ds)
model.evaluate(test_ds)
