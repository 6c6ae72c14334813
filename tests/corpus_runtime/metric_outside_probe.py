"""Metric objects made outside the scope and compiled inside (buggy/r_b40): what Keras really computes.

    PYTHONPATH=$PWD python tests/corpus_runtime/metric_outside_probe.py                        # Keras 3
    TF_USE_LEGACY_KERAS=1 PYTHONPATH=$PWD python tests/corpus_runtime/metric_outside_probe.py  # tf-keras

On 2 logical CPU replicas, one Dense(1, sigmoid) model with fixed weights and SGD(0.0) (so every
prediction is known) is trained for 2 epochs of 6 batches of 16 and evaluated, once with its
metrics made inside the scope and once with the same metrics made outside it. The script prints
one JSON line: the exact values (numpy, on the whole data set; AUC-PR has none, Keras
interpolates it), what fit()'s last
epoch and evaluate() reported each way, and the class of each metric variable and whether the
strategy created it. The README's row for r_b40 quotes a run of it.
"""

from __future__ import annotations

import json
import os

import numpy as np
import tensorflow as tf

_cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(_cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
keras = tf.keras
FLAVOUR = "tfkeras" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "keras3"
STRATEGY = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

RNG = np.random.default_rng(0)
ROWS, WEIGHT, BIAS = 96, 1.5, -0.2
X = RNG.normal(size=(ROWS, 1)).astype("float32")
Y = (RNG.random(ROWS) < 0.4).astype("float32")[:, None]
P = 1 / (1 + np.exp(-(X * WEIGHT + BIAS)))


def exact() -> dict:
    truth = Y[:, 0] == 1

    def precision(threshold):
        predicted = P[:, 0] >= threshold
        return float(np.sum(predicted & truth) / np.sum(predicted))

    predicted = P[:, 0] >= 0.5
    return {
        "precision": precision(0.5),
        "p03": precision(0.3),
        "recall": float(np.sum(predicted & truth) / np.sum(truth)),
        "accuracy": float(np.mean(predicted == truth)),
        "mae": float(np.mean(np.abs(P - Y))),
    }


def metrics() -> list:
    return [
        keras.metrics.Precision(name="precision"),
        keras.metrics.Precision(thresholds=0.3, name="p03"),
        keras.metrics.Recall(name="recall"),
        keras.metrics.BinaryAccuracy(name="accuracy"),
        keras.metrics.MeanAbsoluteError(name="mae"),
        keras.metrics.AUC(name="prc", curve="PR"),
    ]


def variables_of(metric) -> list:
    found = []
    for variable in metric.variables:
        inner = getattr(variable, "value", variable) if FLAVOUR == "keras3" else variable
        found.append([type(inner).__name__, bool(STRATEGY.extended.variable_created_in_scope(inner))])
    return found


def train(outside: bool) -> dict:
    made = metrics() if outside else None
    try:
        with STRATEGY.scope():
            model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, activation="sigmoid")])
            model.layers[-1].set_weights([np.array([[WEIGHT]], "float32"), np.array([BIAS], "float32")])
            made = made or metrics()
            model.compile(optimizer=keras.optimizers.SGD(0.0), loss="binary_crossentropy", metrics=made)
        data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16)
        history = model.fit(data, epochs=2, verbose=0)
        evaluated = model.evaluate(data, verbose=0, return_dict=True)
    except Exception as error:  # noqa: BLE001  (tf-keras refuses at compile: the observation)
        return {"error": type(error).__name__, "message": str(error)[:400]}
    return {
        "fit_last_epoch": {k: round(float(v[-1]), 6) for k, v in history.history.items()},
        "evaluate": {k: round(float(v), 6) for k, v in evaluated.items()},
        "variables": {m.name: variables_of(m) for m in made},
    }


if __name__ == "__main__":
    print(json.dumps({"flavour": FLAVOUR, "exact": exact(), "inside": train(False), "outside": train(True)}))
