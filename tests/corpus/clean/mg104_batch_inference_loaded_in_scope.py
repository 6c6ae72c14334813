"""Offline scoring job on a multi-GPU box: every model is loaded or rebuilt inside the scope."""
import argparse

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="exported/model.keras")
parser.add_argument("--architecture", default="exported/model.json")
parser.add_argument("--weights", default="exported/model.weights.h5")
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy()
SCORING_BATCH = 1024 * strategy.num_replicas_in_sync

with strategy.scope():
    scorer = tf.keras.models.load_model(args.model, compile=False)
    with open(args.architecture) as handle:
        legacy = tf.keras.models.model_from_json(handle.read())
    legacy.load_weights(args.weights)

features = np.load("to_score.npy").astype("float32")
score_ds = tf.data.Dataset.from_tensor_slices(features).batch(SCORING_BATCH).prefetch(tf.data.AUTOTUNE)
scores = scorer.predict(score_ds)
legacy_scores = legacy.predict(score_ds)
np.save("scores.npy", np.stack([scores.ravel(), legacy_scores.ravel()], axis=1))
print("agreement:", float(np.mean((scores > 0.5) == (legacy_scores > 0.5))))
