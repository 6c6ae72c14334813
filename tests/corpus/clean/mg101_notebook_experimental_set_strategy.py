# Colab notebook exported to .py: the strategy is made current once with
# tf.distribute.experimental_set_strategy so that every later cell runs under it
# (documented as equivalent to wrapping each cell in `with strategy.scope():`).

# %% [cell 1]
import tensorflow as tf
import tensorflow_datasets as tfds

# %% [cell 2]
strategy = tf.distribute.MirroredStrategy()
tf.distribute.experimental_set_strategy(strategy)
print("Number of devices:", strategy.num_replicas_in_sync)

BUFFER_SIZE = 10000
BATCH_SIZE_PER_REPLICA = 64
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

# %% [cell 3]
datasets, info = tfds.load(name="mnist", with_info=True, as_supervised=True)
mnist_train, mnist_test = datasets["train"], datasets["test"]


def scale(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

# %% [cell 4]
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(32, 3, activation="relu", input_shape=(28, 28, 1)),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(64, activation="relu"),
    tf.keras.layers.Dense(10),
])

# %% [cell 5]
model.compile(
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=tf.keras.optimizers.Adam(),
    metrics=["accuracy"],
)

# %% [cell 6]
model.fit(train_dataset, epochs=12)
eval_loss, eval_acc = model.evaluate(eval_dataset)
print(f"Eval loss: {eval_loss}, Eval accuracy: {eval_acc}")

# %% [cell 7]
tf.distribute.experimental_set_strategy(None)
model.save("mnist.keras")
