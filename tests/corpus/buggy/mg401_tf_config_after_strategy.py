"""Shape of ParameterServerStrategy-free worker scripts such as ParvinAkhundof/multi-gpu-processing
(test/test.py) with the two steps swapped: the strategy is made first, the cluster written to
TF_CONFIG afterwards, so each process trains alone (measured: 1 worker, 1 replica)."""
import json
import os
import sys

import tensorflow as tf

cluster = {"worker": ["10.42.0.1:12345", "10.42.0.1:23456", "10.42.0.1:34567"]}
per_worker_batch_size = 32

strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy(
    communication=tf.distribute.experimental.CollectiveCommunication.AUTO)
os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": int(sys.argv[1])}})  # expect: MG401

global_batch_size = per_worker_batch_size * strategy.num_replicas_in_sync
with strategy.scope():
    counter = tf.Variable(1.0)
print(counter)
