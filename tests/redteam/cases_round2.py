"""Red-team round 2: minimal reproductions of where `mirrorguard check` disagreed with hand labels of 68
unseen real public files (see README_round2.md in this folder for the per-file table).

Same format as cases.py: CASES maps a name to a source. Each source opens with a docstring naming the real
file it came from and why; `# expect: MGxxx` marks a line where a finding is expected, and every other line
must stay silent. Names starting `fp_` are false alarms of the checker (dated 2026-12-01), `fn_` are misses.
"""

CASES = {
    'fp_trainer_keeps_strategy_built_in_scope': '''\
"""False alarm, MG103. From tensorflow/examples tensorflow_examples/models/densenet/distributed_train.py
(l.44-57, l.211-217): the trainer class takes the strategy as a constructor argument and keeps it as
`self.strategy`, creates its optimizer and metrics in `__init__`, and is constructed by `main()` inside
`with strategy.scope():`. `__init__` runs in the caller's scope (issue 9 shape 5), so everything is
mirrored; the checker asks for `with self.strategy.scope():` inside the class instead. The constructor's
signature `(self, epochs, enable_function, model, batch_size, strategy)` has 10+ copies in the code index
(face-keypoint, nmt and densenet trainers derived from this file)."""
import tensorflow as tf


class Trainer:
    def __init__(self, model, strategy):
        self.strategy = strategy
        self.model = model
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

    def train_step(self, inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            logits = self.model(x, training=True)
            per_example = tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=64)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.accuracy.update_state(y, logits)

    def loop(self, dist_dataset):
        for batch in dist_dataset:
            self.strategy.run(self.train_step, args=(batch,))


def main():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        trainer = Trainer(model, strategy)
    dataset = tf.data.Dataset.range(8).batch(8 * strategy.num_replicas_in_sync)
    trainer.loop(strategy.experimental_distribute_dataset(dataset))


if __name__ == "__main__":
    main()
''',
    'fp_mean_of_already_reduced_loss': '''\
"""False alarm, MG301 (new in 597e110: not reported at 4368802). From google-research/simclr
colabs/intriguing_properties/randbits_mnist.ipynb (code cell 3): `get_contrastive_loss` adds two
`get_cls_loss` values, each already one number, and returns `tf.reduce_mean(loss), sim`. The mean of a
scalar is the scalar: the per-replica averaging, if any, happened in `get_cls_loss` (the colab's real
MG301 is there, at c3:7, and is found). Here `get_cls_loss` already uses `tf.nn.compute_average_loss`, so
the file is correct and the outer mean is still reported, with advice (`compute_average_loss(per_example_loss)`)
that cannot apply to a scalar; a user who fixes c3:7 keeps the warning. The exact line has 2 hits in the
code index; a mean over an already-reduced total (`total_loss = tf.reduce_mean(total_loss)` after summing
reduced terms) is a common idiom among that spelling's 10+ hits."""
import tensorflow as tf

GLOBAL_BATCH = 64
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(8)])
    optimizer = tf.keras.optimizers.Adam()
cls_loss_object = tf.keras.losses.CategoricalCrossentropy(from_logits=True, reduction="none")


def get_cls_loss(labels, outputs):
    return tf.nn.compute_average_loss(cls_loss_object(labels, outputs), global_batch_size=GLOBAL_BATCH)


def get_contrastive_loss(z1, z2):
    sim = tf.matmul(tf.math.l2_normalize(z1, -1), tf.math.l2_normalize(z2, -1), transpose_b=True)
    labels = tf.eye(tf.shape(z1)[0])
    loss = get_cls_loss(labels, sim) + get_cls_loss(labels, tf.transpose(sim))
    return tf.reduce_mean(loss), sim


def step_fn(inputs):
    images_a, images_b = inputs
    with tf.GradientTape() as tape:
        contrastive_loss, _ = get_contrastive_loss(model(images_a, training=True), model(images_b, training=True))
    grads = tape.gradient(contrastive_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


@tf.function
def train_step(batch):
    strategy.run(step_fn, args=(batch,))
''',
    'fp_unreplicated_copy_inspected_by_attribute': '''\
"""False alarm (judgement call), MG101 and MG102. From jraman/ml-tryouts tensorflow/tutorial/tpu.ipynb
(code cells 5-8): a Colab TPU tutorial builds the model twice with its factory, once in the scope and once
outside, compiles both, and prints each one's strategy to show the difference. The outside copy is never
trained, evaluated on the strategy or handed to anything that trains (judgement 25: a deliberate
unreplicated copy). The checker already leaves it alone when the copy is only `summary()`-ed or
`evaluate()`-d; reading an attribute of it (`cpumodel.distribute_strategy`, the notebook's
`cpumodel._get_distribution_strategy()`) counts as handing it on. Rare: tutorials that demonstrate
replication."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def create_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(10, input_shape=(4,))])


with strategy.scope():
    tpumodel = create_model()
    tpumodel.compile(optimizer="adam", loss="mse")
print("replicated:", tpumodel.distribute_strategy)

# Lead's call: reading an attribute is no sign the copy is kept out on purpose
# (the exemption takes evaluate/predict/export only); `# noqa: MG101` says so.
cpumodel = create_model()  # expect: MG101
cpumodel.compile(optimizer="adam", loss="mse")  # expect: MG102
print("not replicated:", cpumodel.distribute_strategy)
''',
    'fn_strategy_imported_by_name': '''\
"""Miss, MG201. From ashishpatel26/tpu_tf2 demo_colab.ipynb (code cells
2, 6, 7): the notebook takes its strategy from a helper package (`from tpu_tf2.tpu import strategy`),
builds and compiles inside `with strategy.scope():`, then fits arrays with `batch_size=512`. A name the file
enters `.scope()` of is a strategy in play, and the checker agrees when the same name is undefined, bound
by `strategy = tpu_setup.strategy`, `from ... import strategy as s; strategy = s` or `get_strategy()`;
and even when it comes from `from tpu_setup import *`; only the plain `from X import strategy` binding turns
every rule off (a model built before the block, or `compile` moved after it, is not reported either), also
with cross-file analysis and a `tpu_setup.py` that builds the MirroredStrategy beside it.
`from kaggle_runner.utils.tpu import strategy` has 4 more hits in the code index (pennz/kaggle_runner
kernels)."""
import numpy as np
import tensorflow as tf
from tpu_setup import strategy

x, y = np.ones((1024, 8)), np.ones((1024, 1))
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
model.fit(x, y, batch_size=512, epochs=2)  # expect: MG201
''',
    'fn_metrics_added_to_existing_dict': '''\
"""Misses, MG103. From google-research/simclr colabs/intriguing_properties/randbits_mnist.ipynb (code cell
5, l.50-54): metric objects are made outside any scope by a dict comprehension, then more are added with
`metric_list.update({s: SparseCategoricalAccuracy(name=s) for s in acc_metrics})`; all are updated in the
step function run by `strategy.run`. The comprehension bound by `=` is reported; the ones added to the
existing dict afterwards, by `.update(...)` or by subscript assignment (`metrics["acc"] = Metric()`, the
more common spelling), are not."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()

metrics = {name: tf.keras.metrics.Mean(name=name) for name in ["loss"]}  # expect: MG103
metrics.update({name: tf.keras.metrics.SparseCategoricalAccuracy(name=name) for name in ["acc"]})  # expect: MG103
metrics["top5"] = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=5)  # expect: MG103


def step_fn(inputs):
    x, y = inputs
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        per_example = tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=64)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    metrics["loss"].update_state(loss)
    metrics["acc"].update_state(y, logits)
    metrics["top5"].update_state(y, logits)


@tf.function
def train_step(batch):
    strategy.run(step_fn, args=(batch,))
''',
}
