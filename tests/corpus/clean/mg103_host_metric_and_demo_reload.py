"""Shape 9.2 (valid): names reused for host-side objects and for the real, replicated ones.

Style: TF imbalanced-data tutorial (tensorflow/docs site/en/tutorials/structured_data/
imbalanced_data.ipynb) turned into a resume-and-score script: a demo reload of the
saved model outside the scope only predicts; an AUC metric made outside is only fed
numpy predictions on the host. The names `model` and `auc` are then rebound inside
the scope to the objects that train. Each binding is judged on its own: clean.
"""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 2048 * strategy.num_replicas_in_sync

features = np.load("features.npy")
labels = np.load("labels.npy")

# Quick sanity check of last week's model: predictions only, on the host.
model = tf.keras.models.load_model("fraud_v1.keras")
scores = model.predict(features[:5000], verbose=0)
auc = tf.keras.metrics.AUC(name="auc")
auc.update_state(labels[:5000], scores)
print("previous model AUC:", float(auc.result()))

with strategy.scope():
    model = tf.keras.models.load_model("fraud_v1.keras")
    auc = tf.keras.metrics.AUC(name="auc")
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4),
                  loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[auc])

model.fit(features, labels, batch_size=GLOBAL_BATCH, epochs=10, validation_split=0.2)
model.save("fraud_v2.keras")
