"""The guards and assert_mirrored under ParameterServerStrategy, on an in-process cluster (1 worker, 1 ps).

    TF_USE_LEGACY_KERAS=1 python tests/runtime/_pss_probe.py

Run by tests/runtime/test_parameter_server.py; prints one JSON line of what was observed.
"""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import tensorflow as tf

from mirrorguard.testkit.workers import free_ports


worker_port, ps_port = free_ports(2)
cluster = tf.train.ClusterSpec({"worker": [f"127.0.0.1:{worker_port}"], "ps": [f"127.0.0.1:{ps_port}"]})
servers = [
    tf.distribute.Server(cluster, job_name=job, task_index=0, protocol="grpc", start=True) for job in ("worker", "ps")
]
resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(cluster, rpc_layer="grpc")
strategy = tf.distribute.experimental.ParameterServerStrategy(resolver)

import mirrorguard  # noqa: E402
from mirrorguard.callbacks import AssertEvenBatchSplit, AssertMirroredVariables  # noqa: E402

keras = tf.keras
out = {"flavour": "tfkeras" if os.environ.get("TF_USE_LEGACY_KERAS") == "1" else "keras3"}


def ours(caught):
    return [str(w.message) for w in caught if "does not apply under ParameterServerStrategy" in str(w.message)]


with strategy.scope():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    mirrorguard.assert_mirrored(strategy, model)
out["assert_mirrored"] = ours(caught)

x = np.ones((64, 4), "float32")
y = np.zeros((64, 1), "float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(9).repeat()  # 9 rows: uneven anywhere else
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        model.fit(dataset, epochs=2, steps_per_epoch=3, verbose=0,
                  callbacks=[AssertMirroredVariables(strategy), AssertEvenBatchSplit()])
        out["fit"] = "returned"
    except Exception as error:  # noqa: BLE001 - observed, asserted in pytest
        out["fit"] = f"{type(error).__name__}: {str(error)[:300]}"
out["fit_warnings"] = ours(caught)
print("MG-PSS " + json.dumps(out), flush=True)
os._exit(0)  # in-process servers never stop by themselves
