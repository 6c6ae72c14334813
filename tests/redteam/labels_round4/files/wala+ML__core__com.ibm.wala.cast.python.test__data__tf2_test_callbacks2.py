# red-team round 4 labelled copy of github.com/wala/ML `core/com.ibm.wala.cast.python.test/data/tf2_test_callbacks2.py` at commit ad96543f7eeda3fb3abe04afad36ba84d6613538 (verbatim below)
# Labels count lines of this copy: original line + 2.
# From https://www.tensorflow.org/versions/r2.9/api_docs/python/tf/distribute/Strategy#example_usage_2.

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["GPU:0", "GPU:1"])
tensor_input = tf.constant(3.0)


@tf.function
def replica_fn(input):
    return input * 2.0


# Indirect call to replica_fun().
result = strategy.run(replica_fn, (tensor_input,))
print(result)
