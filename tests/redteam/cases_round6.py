"""Red-team round 6: minimal reproductions of where `mirrorguard check` disagreed with hand labels of 27
unseen real files (tensorflow-issue reproduction scripts; see README_round6.md and labels_round6/).

Same format as cases_round5.py: CASES maps a name to a source. Each source opens with a docstring naming
the real file it came from and why; `# expect: MGxxx` marks a line where a finding is expected, and every
other line must stay silent. Names starting `fp_` are false alarms of the checker (main 8a16573,
2026-12-02), `fn_` are misses. The sources are written in our own words, reduced to the shape that triggers the finding.

KNOWN_WRONG records what the checker reports today on each case it still gets wrong (a set of
(line, code)); tests/checker/test_rule_cases.py asserts exactly that output, so the disagreement stays
visible and a fix makes the test fail until the case leaves KNOWN_WRONG.

FIX_CASES are not run by the tests: the finding is right, the fix is not (README_round6.md).
"""

CASES = {
    'fp_helper_model_trained_to_the_end_before_strategy_exists': '''\
"""False alarm, MG101 and MG102 (at the helper call). From Zenasj/HBTGen-artifact
data/tensorflow-issue/issue_48374.py l.45-49 (stored copy): two scripts pasted one after the other; the
first builds and compiles a model with the file's helper, trains it to the end, and only then does the
second create the strategy and call the same helper inside its scope. MG101's contract: "one built,
compiled and trained to the end before it never meets the strategy". Written inline (no helper) the
checker is silent; through the file's own helper it reports the call, whatever the model's name."""
import tensorflow as tf
from data import train_ds


def build_and_compile():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


baseline = build_and_compile()
baseline.fit(train_ds, epochs=1)

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = build_and_compile()
model.fit(train_ds, epochs=1)
''',
    'fp_batch_and_fit_of_model_trained_before_the_mwms': '''\
"""False alarm, MG201 and MG404. From Zenasj/HBTGen-artifact data/tensorflow-issue/issue_48374.py
l.45-49 (stored copy): the same pasted first script, written inline: a model trained to the end on
`.batch(64)` before the MultiWorkerMirroredStrategy is created. MG101/MG102 are silent here (the model
never meets the strategy), but MG201 reports the batch ("a batch whose dataset never reaches the
strategy" is not judged) and MG404 the fit of that model (round 1 counted the same MG404 as a false
alarm). MG403 on the strategy is right: the first script started TensorFlow."""
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(([[1.0]], [[1.0]])).shard(1, 0)
first = tf.keras.Sequential([tf.keras.layers.Dense(1)])
first.compile(optimizer="sgd", loss="mse")
first.fit(ds.batch(64), epochs=1)

strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: MG403
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
model.fit(ds.batch(8 * strategy.num_replicas_in_sync), epochs=1)  # expect: MG404
''',
    'fn_model_class_super_init_outside_scope_strategy_passed_inline': '''\
"""Miss, MG101. Found while reducing Zenasj/HBTGen-artifact data/tensorflow-issue/issue_53008.py l.21-72
(stored copy), where the checker is right: a keras.Model subclass runs `super().__init__()` outside and
makes only its layers in `self.strategy.scope()`, which MG101's contract counts as built outside ("with
only the layers there, Keras 3 fails at fit"; measured in tests/corpus/clean/
mg101_model_class_enters_own_scope.py). `s = MirroredStrategy(); Net(s)` and the real file's
`for choose_strat in [None, MirroredStrategy(...)]: FailM(choose_strat)` are reported; handing the
strategy straight in, `Net(tf.distribute.MirroredStrategy())`, is silent although the class and its
scope are the same."""
import tensorflow as tf


class Net(tf.keras.Model):
    def __init__(self, strategy):
        super().__init__()
        self.strategy = strategy
        with self.strategy.scope():
            self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


model = Net(tf.distribute.MirroredStrategy())  # expect: MG101
''',
    'fp_unused_dataset_of_a_helper_returning_two': '''\
"""False alarm, MG201. From Zenasj/HBTGen-artifact data/tensorflow-issue/issue_39550.py l.97-146 (stored
copy): a helper batches a train and a validation split with a literal and returns both; the caller
unpacks `train, val = get_dataset(i)` and uses only `val` (its fit reads another name). MG201's contract
leaves out a batch whose dataset is "never read ... also by or after a helper of the file". Written inline
(`train = ds.skip(100).batch(456)` never read) the checker is silent; returned from the helper in a
tuple, the unread element is reported. The used one, scaled here, is silent as it should be."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH = 16 * strategy.num_replicas_in_sync


def get_datasets(ds):
    val = ds.take(100).batch(BATCH)
    train = ds.skip(100).batch(456)
    return train, val


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
train, val = get_datasets(tf.data.Dataset.from_tensor_slices(([[1.0]] * 200, [[1.0]] * 200)))
model.evaluate(val)
''',
    'fp_summary_override_of_a_model_built_in_the_scope': '''\
"""False alarm (debatable), MG101 at the call. From Zenasj/HBTGen-artifact
data/tensorflow-issue/issue_56676.py l.43-87 (stored copy): the common subclassed-model trick
`def summary(self): Model(inputs, self.call(inputs)).summary()`, called outside the scope. In the real
file the layers were not built yet, so `self.call(inputs)` creates their weights outside the scope and the
finding points at a real hazard (label moved to DEBATABLE). Here the model is built in the scope first:
the wrapper reuses built layers, creates no variable and is only printed, which MG101 leaves alone for a
copy "only ... inspected ... beside a model built inside the scope"; the checker reports it (and any
method of the class that returns such a wrapper) because a call of the file's own function that builds a
model is reported, whatever is done with the result. docs/rules.md should say which."""
import tensorflow as tf


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def summary(self):
        inputs = tf.keras.Input(shape=(4,))
        return tf.keras.Model(inputs=inputs, outputs=self.call(inputs)).summary()


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = Net()
    model.build((None, 4))
    model.compile(optimizer="adam", loss="mse")
model.summary()
''',
}

KNOWN_WRONG = {
    'fn_model_class_super_init_outside_scope_strategy_passed_inline': set(),
    'fp_summary_override_of_a_model_built_in_the_scope': {(31, 'MG101')},
}

FIX_CASES = {
    'unsafe_fix_names_a_strategy_local_to_another_function': '''\
"""MG201 is right here, its --unsafe-fixes rewrite is not. From Zenasj/HBTGen-artifact
data/tensorflow-issue/issue_60926.py l.31-109 (stored copy): the strategy is a local of create_model();
the module-level evaluate(batch_size=batch_size) gets `batch_size * strategy.num_replicas_in_sync`, and
`strategy` is not defined at module level: the fixed script stops with NameError at its first evaluate.
(In the real file the local is `distribution_strategy`; all six evaluate calls are rewritten so.)"""
import numpy as np
import tensorflow as tf


def create_model():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
    return model


batch_size = 9
model = create_model()
model.evaluate(np.ones((90, 4)), np.ones((90, 1)), batch_size=batch_size)  # expect: MG201
''',
}
