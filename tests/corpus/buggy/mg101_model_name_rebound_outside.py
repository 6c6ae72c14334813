"""Shape 9.2 (invalid): one name, two models; the second binding is made outside the scope.

Style: Kaggle GPU notebook exported to a script ("# In[n]:" cells): a baseline
trained under the strategy, then the same variable `model` reused for a "bigger"
model built and compiled after the `with` block and trained. Each binding is its
own object: the first is fine, the second is MG101 + MG102.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 32 * strategy.num_replicas_in_sync

(x_train, y_train), (x_val, y_val) = tf.keras.datasets.fashion_mnist.load_data()
x_train, x_val = x_train / 255.0, x_val / 255.0

# In[3]:
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(x_train, y_train, batch_size=BATCH, epochs=5, validation_data=(x_val, y_val))

# In[4]:
# try a wider network
model = tf.keras.Sequential([  # expect: MG101
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(512, activation="relu"),
    tf.keras.layers.Dropout(0.3),
    tf.keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])  # expect: MG102
model.fit(x_train, y_train, batch_size=BATCH, epochs=5, validation_data=(x_val, y_val))
