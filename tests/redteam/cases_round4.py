"""Red-team round 4: minimal reproductions of where `mirrorguard check` disagreed with hand labels of 41
unseen real public files (see README_round4.md in this folder and labels_round4/).

Same format as cases_round3.py: CASES maps a name to a source. Each source opens with a docstring naming
the real file it came from and why; `# expect: MGxxx` marks a line where a finding is expected, and every
other line must stay silent. Names starting `fp_` are false alarms of the checker (main e9b5bba,
2026-12-02), `fn_` are misses.

KNOWN_WRONG records what the checker reports today on each case that it still gets wrong. The test
(test_red_team_case in tests/checker/test_rule_cases.py) asserts exactly that output, so the disagreement stays visible in
the suite: when a fix changes the output the test fails, and the case then moves out of KNOWN_WRONG
(its `# expect:` lines become the assertion, as for every other round).
"""

CASES = {
    'fp_dict_sibling_key_divided_by_replicas': '''\
"""False alarm, MG202, and miss, MG201. From SaKi1309/ML_Notebooks GAN_distributed_training.ipynb c5, c7:11-12:
a config dict holds both "BATCH_SIZE_PER_REPLICA": GLOBAL / num_replicas_in_sync and "GLOBAL_BATCH_SIZE": 256
(a literal). The dataset is batched by the GLOBAL key and distributed: an unscaled global batch (MG201), but
the division of the sibling key makes the whole dict count as per-replica, so MG202 says to multiply it by the
replicas. Issue 17 names this shape ("a dict key of the same config that is divided says nothing about its
sibling"). Config dicts with both keys: common in Kaggle/Colab TPU notebooks."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 256
CONFIG = {
    "BATCH_SIZE_PER_REPLICA": int(GLOBAL_BATCH_SIZE / strategy.num_replicas_in_sync),
    "GLOBAL_BATCH_SIZE": GLOBAL_BATCH_SIZE,
}
train = tf.data.Dataset.range(1024).batch(CONFIG["GLOBAL_BATCH_SIZE"], drop_remainder=True)  # expect: MG201
dist = strategy.experimental_distribute_dataset(train)
''',
    'fp_loss_divided_by_cast_of_replicas': '''\
"""False alarm, MG301. From google/uncertainty-baselines baselines/imagenet/efficientnet.py l.181-204 (stored
copy l.183-206): the replica step takes the mean negative log-likelihood and divides the loss by
`num_replicas = tf.cast(strategy.num_replicas_in_sync, tf.float32)`, the hand-written correct scaling. A
division by `strategy.num_replicas_in_sync` itself is recognised; through `tf.cast` bound to a name it is
not. `tf.cast(strategy.num_replicas_in_sync, tf.float32)`: 10+ hits in the code index."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)


def train_step(inputs):
    x, y = inputs
    num_replicas = tf.cast(strategy.num_replicas_in_sync, tf.float32)
    with tf.GradientTape() as tape:
        nll = tf.reduce_mean(tf.square(model(x) - y))
        scaled_loss = nll / num_replicas
    grads = tape.gradient(scaled_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


@tf.function
def distributed_step(inputs):
    strategy.run(train_step, args=(inputs,))
''',
    'fp_metric_added_to_step_dict_for_host_eval': '''\
"""False alarm, MG103. From google/uncertainty-baselines baselines/clinc_intent/deterministic.py l.275-276
(stored copy l.277-278): after the scope, "OOD metrics outside the accelerator scope for CPU eval" are added
to the same `metrics` dict the replica step updates (`metrics.update({'test/auroc_all': AUC(...)})`); they
are only updated by an evaluation step called directly on undistributed test data. The dict as a whole is
used in `strategy.run`, so each of its values counts as used there. The same dict shape with host-side
timing metrics (`metrics.update({'test/ms_per_example': Mean()})`, 10+ hits, every uncertainty-baselines
script) is reported too; labelled DEBATABLE there, because one step loops over the whole dict."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    metrics = {"train/loss": tf.keras.metrics.Mean()}
metrics.update({"test/auroc": tf.keras.metrics.AUC(curve="ROC")})


@tf.function
def train_step(iterator):
    def step_fn(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x)) / 8.0
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        metrics["train/loss"].update_state(loss)

    strategy.run(step_fn, args=(next(iterator),))


@tf.function
def test_step(x, labels):
    probs = tf.nn.softmax(model(x))
    metrics["test/auroc"].update_state(labels, probs[:, 1])
''',
    'fp_tuner_best_model_built_only_to_save': '''\
"""False alarm, MG101. From ageron/handson-ml3 19_training_and_deploying_at_scale.ipynb c96:76-78 (the
%%writefile my_keras_tuner_search.py cell): after a Hyperband search given
`distribution_strategy=tf.distribute.MirroredStrategy()`, the chief rebuilds the best model with
`tuner.hypermodel.build(best_hp)` and only saves it. Issue 17 lists this as a deliberate copy ("a model
built only to be saved ... tuner.hypermodel.build(hp).save(p)"); bound to a name first, it is reported.
`tuner.hypermodel.build(best_hp...)`: 10+ hits, most of them then trained (and
then judged as usual); built only to be saved is rarer."""
import keras_tuner as kt
import tensorflow as tf


def build_model(hp):
    model = tf.keras.Sequential([tf.keras.layers.Dense(hp.Int("units", 8, 64))])
    model.compile(optimizer="adam", loss="mse")
    return model


tuner = kt.Hyperband(build_model, objective="val_loss", max_epochs=2,
                     distribution_strategy=tf.distribute.MirroredStrategy())
tuner.search(tf.zeros([8, 4]), tf.zeros([8, 1]), epochs=1, validation_split=0.5)
best_hp = tuner.get_best_hyperparameters()[0]
best_model = tuner.hypermodel.build(best_hp)
best_model.save("/tmp/best")
''',
    'fp_multi_worker_strategy_after_context_reset': '''\
"""False alarm, MG403. From tensorflow/ecosystem spark/spark-tensorflow-distributor/
spark_tensorflow_distributor/mirrored_strategy_runner.py l.273-282 (stored copy l.275-284): the Spark runner
resets the eager context (`context._reset_context()`, a private TensorFlow API) so that a reused Python worker
starts fresh, then creates the MultiWorkerMirroredStrategy. The reset is counted as an operation that started
TensorFlow; it is the opposite. `context._reset_context()`: 10+ hits, mostly test set-ups that
reset before configuring logical devices (unknown API)."""


def run_tensorflow_program(train_fn):
    import tensorflow as tf
    from tensorflow.python.eager import context

    context._reset_context()
    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    with strategy.scope():
        return train_fn()
''',
    'fn_variable_through_tf_function_parameter_to_run_args': '''\
"""Miss, MG105. From google/uncertainty-baselines baselines/cifar/sngp.py l.618-629 (stored copy l.620):
`step_variable = tf.Variable(0)` is made outside the scope, assigned on the host each step and passed to the
tf.function `train_step(iterator, step)`, which hands `step` to `strategy.run(step_fn, args=(..., step))`.
The contract names "passed to strategy.run(args=...)"; through the parameter of the file's own function it is
not followed. Here it is harmless (the variable is only read: labels_round4/runtime_checks.py
step_variable_in_run_args), an assign_add in the step would count once per replica (FACTS.md)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


@tf.function
def train_step(iterator, step):
    def step_fn(inputs, step):
        if tf.equal(step, 0):
            tf.print("new epoch")
        return model(inputs)

    strategy.run(step_fn, args=(next(iterator), step))


step_variable = tf.Variable(0, dtype=tf.int32)  # expect: MG105
dataset = tf.data.Dataset.range(8).map(lambda i: tf.zeros([1])).batch(2 * strategy.num_replicas_in_sync)
iterator = iter(strategy.experimental_distribute_dataset(dataset))
for step in range(2):
    step_variable.assign(step)
    train_step(iterator, step_variable)
''',
}

# What the checker (main e9b5bba) reports on each case it still gets wrong: asserted as is by
# tests/checker/test_rule_cases.py (test_red_team_case), so a fix that changes the output shows up as a failing test.
KNOWN_WRONG = {
}
