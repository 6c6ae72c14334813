"""Flask endpoint serving a trained classifier.  Single device, no strategy."""
import numpy as np
import tensorflow as tf
from flask import Flask, jsonify, request
from tensorflow.keras.models import load_model, model_from_json

app = Flask(__name__)
MODEL = load_model("export/classifier.keras", compile=False)

with open("export/legacy_arch.json") as fh:
    LEGACY = model_from_json(fh.read())
LEGACY.load_weights("export/legacy.weights.h5")
LABELS = [line.strip() for line in open("export/labels.txt")]


@app.route("/predict", methods=["POST"])
def predict():
    payload = request.get_json()
    batch = np.asarray(payload["instances"], dtype=np.float32)
    probs = MODEL.predict(batch, batch_size=64, verbose=0)
    legacy = LEGACY.predict(batch, batch_size=64, verbose=0)
    top = probs.argmax(axis=-1)
    return jsonify({"labels": [LABELS[i] for i in top], "legacy_agree": (legacy.argmax(-1) == top).tolist()})


if __name__ == "__main__":
    tf.config.set_visible_devices([], "GPU")
    app.run(host="0.0.0.0", port=8080)
