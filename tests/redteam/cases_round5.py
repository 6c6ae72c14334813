"""Red-team round 5: minimal reproductions of where `mirrorguard check` disagreed with hand labels of 58
unseen real public files (see README_round5.md in this folder and labels_round5/).

Same format as cases_round4.py: CASES maps a name to a source. Each source opens with a docstring naming
the real file it came from and why; `# expect: MGxxx` marks a line where a finding is expected, and every
other line must stay silent. Names starting `fp_` are false alarms of the checker (main fc7af48,
2026-12-02), `fn_` are misses.

KNOWN_WRONG records what the checker reports today on each case that it still gets wrong. The test
(tests/checker/test_redteam_cases.py) asserts exactly that output, so the disagreement stays visible in
the suite: when a fix changes the output the test fails, and the case then moves out of KNOWN_WRONG
(its `# expect:` lines become the assertion, as for every other round).
"""

CASES = {
    'fp_compile_in_else_of_repeated_strategy_condition': '''\
"""False alarm, MG102, and a "safe" fix that breaks the program. From david8862/keras-YOLOv3-model-set
train.py l.157-168, l.222-231 (stored copy): the strategy is made under `if args.gpu_num >= 2:` and the
model built by the repository's get_train_model() in its scope (else without one); later a second
`if args.gpu_num >= 2:` recompiles in the scope and its `else:` recompiles without one. On that path no
strategy exists (issue 17: the no-strategy branch is not judged), yet MG102 fires, and `mirrorguard fix`
wraps the else-branch compile in `with strategy.scope():`, where `strategy` is unbound: a single-GPU run
that worked now stops with `UnboundLocalError: cannot access local variable 'strategy'` (run with a stub
`tensorflow`, README_round5.md). Cause: the no-strategy branch is recognised only when the `if` tests a
bare name (`if gpu_num >= 2:` is silent); an attribute (`args.gpu_num`, `FLAGS.use_tpu`, the usual
argparse/absl spelling and issue 17's own example) is not."""
import tensorflow as tf
from yolo3.model import get_train_model


def main(args):
    if args.gpu_num >= 2:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = get_train_model()
    else:
        model = get_train_model()
    if args.gpu_num >= 2:
        with strategy.scope():
            model.compile(optimizer="adam", loss="mse")
    else:
        model.compile(optimizer="adam", loss="mse")
''',
    'fp_helper_compiling_called_in_no_strategy_else': '''\
"""False alarm, MG102 (at the call). From zzh8829/yolov3-tf2 train.py l.112-124 (stored copy): under
`if FLAGS.multi_gpu:` the strategy is made and `setup_model()` (which builds and compiles) is called in its
scope; the `else:` calls it with no strategy at all. Issue 17 names this branch as not judged. `check`
counts it as fixable, and `fix` then refuses ("no strategy is created before it in main()"), so the
"N fixable" count is wrong too (issue 17 section 4). As in the case above, `if multi_gpu:` (a bare name)
is silent; `if FLAGS.multi_gpu:` is not."""
import tensorflow as tf
from absl.flags import FLAGS


def setup_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    return model


def main():
    if FLAGS.multi_gpu:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = setup_model()
    else:
        model = setup_model()
    return model
''',
    'fp_global_from_per_worker_name_read_as_per_replica': '''\
"""False alarm, MG202, and miss, MG201. From makhmudjumanazarov/MultiDevice-and-MultiGPU-Train-via-Tensorflow
multi_gpu_tfds.py l.16-19, l.41-55 (stored copy): `global_batch_size = per_worker_batch_size * num_workers`
with `num_workers = 2` a literal, given to image_dataset_from_directory(batch_size=) and fit. Issue 17:
this is an unscaled global batch (MG201); the checker calls it per-replica (MG202, from the `per_worker`
operand) and its advice, "batch with `global_batch_size * strategy.num_replicas_in_sync`", scales the
global batch a second time. The same value handed to a helper that batches is reported MG201 (the
repository's multi_gpu.py l.43), so the role depends on the path, not on the value."""
import tensorflow as tf

num_workers = 2
per_worker_batch_size = 64
global_batch_size = per_worker_batch_size * num_workers
strategy = tf.distribute.MultiWorkerMirroredStrategy()
train_ds = tf.keras.utils.image_dataset_from_directory("flowers/", batch_size=global_batch_size)  # expect: MG201
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(5)])
    model.compile(optimizer="adam", loss="mse")
model.fit(train_ds, epochs=3)  # expect: MG404
''',
    'fp_mean_loss_with_gradients_mean_all_reduced_by_hand': '''\
"""False alarm, MG301. From google-deepmind/sonnet examples/distributed_cifar10.ipynb c12:1-16: the replica
step takes the per-replica mean loss, then all-reduces the gradients itself with
`replica_ctx.all_reduce("mean", grads)` and applies them with a Sonnet optimizer (`optimizer.apply`), whose
updates do not sum over replicas (snt.distribute.Replicator makes variables ONLY_FIRST_REPLICA). The
update is the global mean: correct. MG301's premise ("apply_gradients sums the replicas' gradients") holds
for Keras optimizers only; with a Keras optimizer the same step would be N times too large again."""
import sonnet as snt
import tensorflow as tf

strategy = snt.distribute.Replicator(["/device:GPU:0", "/device:GPU:1"])
with strategy.scope():
    model = snt.nets.MLP([1])
    optimizer = snt.optimizers.SGD(0.1)


def step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    grads = tf.distribute.get_replica_context().all_reduce("mean", grads)
    optimizer.apply(grads, model.trainable_variables)
    return loss


@tf.function
def train_step(x, y):
    return strategy.run(step, args=(x, y))
''',
    'fn_optimizer_outside_scope_applied_in_plain_tf_function': '''\
"""Miss, MG103. From kubeflow/examples tensorflow_cuj/neural_machine_translation/distributed_nmt_with_attention.py
l.184-257 (stored copy): define_model() makes a MirroredStrategy and builds the encoder and decoder in its
scope; train() then makes `optimizer = tf.keras.optimizers.Adam()` outside it and applies gradients to the
models' (mirrored) variables in a tf.function called directly (no strategy.run, no compile). Measured
(labels_round5/runtime_checks.py, 2 logical CPUs, Keras 3.15): the first step fails with `TypeError: tuple
indices must be integers or slices, not MirroredVariable`; the same optimizer made in the scope trains.
MG103's list of uses (compile, the scope, model.optimizer, strategy.run) misses apply_gradients on the
strategy's variables."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(1.0)  # expect: MG103


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
''',
}

KNOWN_WRONG = {
}
