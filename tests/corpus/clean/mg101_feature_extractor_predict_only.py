"""Embedding-extraction step after training: a functional view over the trained layers, only used to predict."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 64 * strategy.num_replicas_in_sync

with strategy.scope():
    inputs = tf.keras.Input(shape=(128,))
    hidden = tf.keras.layers.Dense(64, activation="relu", name="embedding")(inputs)
    outputs = tf.keras.layers.Dense(5, activation="softmax")(hidden)
    classifier = tf.keras.Model(inputs, outputs)
    classifier.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

x = np.random.rand(20_000, 128).astype("float32")
y = np.random.randint(0, 5, size=(20_000,))
classifier.fit(x, y, batch_size=GLOBAL_BATCH, epochs=4)

embedder = tf.keras.Model(inputs=classifier.input, outputs=classifier.get_layer("embedding").output)
embeddings = embedder.predict(x, batch_size=GLOBAL_BATCH)
np.save("embeddings.npy", embeddings)
