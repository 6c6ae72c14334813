"""Shape of tensorflow/docs multi_worker_with_keras as a notebook exported to a script (and of
launchers such as DevTesaG/AI_General_Proj_Structure configs/workers.py): this process makes a
strategy for its own single-worker demo, then writes TF_CONFIG once per worker it starts."""
import json
import os
import subprocess
import sys

os.environ.pop("TF_CONFIG", None)
os.environ["TF_USE_LEGACY_KERAS"] = "1"  # tf-keras: Keras 3 cannot fit() under MWMS
import tensorflow as tf

strategy = tf.distribute.MultiWorkerMirroredStrategy()  # TF_CONFIG unset: one worker, on purpose
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    model.compile(optimizer="sgd", loss="mse")

tf_config = {"cluster": {"worker": ["localhost:12345", "localhost:23456"]}, "task": {"type": "worker", "index": 0}}
workers = []
for index in range(2):
    tf_config["task"]["index"] = index
    os.environ["TF_CONFIG"] = json.dumps(tf_config)
    workers.append(subprocess.Popen([sys.executable, "main.py"]))
for worker in workers:
    worker.wait()
