"""Red-team cases: minimal reproductions of where `mirrorguard check` disagreed with hand labels of real
public training code (see README.md in this folder for the table of real files).

CASES maps a name to a source. Each source opens with a docstring naming the real file it came from and
why; `# expect: MGxxx` marks a line where a finding is expected, and every other line must stay silent.
Names starting `fp_` are false alarms of the checker (dated 2026-12-01), `fn_` are misses.
"""

CASES = {
    'fp_host_metric_rebound_in_scope': '''\
"""False alarm, MG103. From tensorflow/docs site/en/tutorials/distribute/parameter_server_training.ipynb
(code cells 19-20) and its copy nakamasato/ml-training tensorflow/parameter-server-training/
train_with_custom_training_loop.py l.178: a host-side metric updated in a coordinator loop, then a metric of
the same name re-created inside the scope for the replica function. Each binding is its own object
(issue 9 shape 2, judgement S3); only the first one is reported, as if the replica function used it."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])

x, y = np.ones((16, 3)), np.ones((16, 1))
eval_accuracy = tf.keras.metrics.Accuracy()
for features, labels in tf.data.Dataset.from_tensor_slices((x, y)).batch(8):
    pred = model(features, training=False)
    eval_accuracy.update_state(labels, tf.cast(pred > 0.5, tf.int64))
print(eval_accuracy.result())

with strategy.scope():
    eval_accuracy = tf.keras.metrics.Accuracy()


@tf.function
def eval_step(features, labels):
    def replica_fn(features, labels):
        pred = model(features, training=False)
        eval_accuracy.update_state(labels, tf.cast(pred > 0.5, tf.int64))

    strategy.run(replica_fn, args=(features, labels))
''',
    'fp_session_run_is_not_strategy_run': '''\
"""False alarm, MG201. From https-deeplearning-ai/tensorflow-3-public Course 2 Week 4
C2_W4_Lab_3_using-TPU-strategy.ipynb (code cells 9 and 11; the `dataset_to_numpy_util` display helper of the
Kaggle/Colab TPU flower notebooks, copied widely): a helper batches N examples and turns them into numpy
arrays for plotting, with a TF1 fallback `with tf.Session() as ses: ses.run(...)`. `Session.run` is taken for
`strategy.run`, so the literal N at each call site is reported; the batch never reaches the strategy (S6).
Without the `ses.run` branch the checker is silent."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def dataset_to_numpy(dataset, n):
    dataset = dataset.batch(n)
    if tf.executing_eagerly():
        for images, labels in dataset:
            return images.numpy(), labels.numpy()
    with tf.compat.v1.Session() as ses:
        return ses.run(dataset)


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])

samples, _ = dataset_to_numpy(tf.data.Dataset.from_tensor_slices((np.ones((64, 4)), np.ones((64, 3)))), 160)
print(np.argmax(model(samples), axis=-1))
''',
    'fp_estimator_input_fn_beside_keras_strategy': '''\
"""False alarm, MG201. From tensorflow/docs site/en/guide/migrate/multi_worker_cpu_gpu_training.ipynb
(code cell 6): the TF1 Estimator half of a migration guide batches in `input_fn` (`.batch(1)`), and the TF2
half creates a strategy later. An Estimator `input_fn` batch is not a flow into a strategy (issue 9 shape 14,
judgement S16); it is reported here because this Estimator has no `RunConfig(train_distribute=...)`."""
import numpy as np
import tensorflow as tf
import tensorflow.compat.v1 as tf1

features, labels = np.ones((8, 2), "float32"), np.ones((8, 1), "float32")


def _input_fn():
    return tf1.data.Dataset.from_tensor_slices((features, labels)).batch(1)


def _model_fn(features, labels, mode):
    logits = tf1.layers.Dense(1)(features)
    loss = tf1.losses.mean_squared_error(labels=labels, predictions=logits)
    train_op = tf1.train.AdagradOptimizer(0.05).minimize(loss, global_step=tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


estimator = tf1.estimator.Estimator(model_fn=_model_fn)
tf1.estimator.train_and_evaluate(
    estimator, tf1.estimator.TrainSpec(input_fn=_input_fn), tf1.estimator.EvalSpec(input_fn=_input_fn)
)

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 8 * strategy.num_replicas_in_sync
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adagrad", loss="mse")
model.fit(tf.data.Dataset.from_tensor_slices((features, labels)).batch(GLOBAL_BATCH))
''',
    'fp_dead_dataset_binding': '''\
"""False alarm, MG201. From tensorflow/docs site/en/tutorials/distribute/input.ipynb (code cell 7): a
dataset batched with a literal only to show `tf.data.Options` auto-sharding, then the name is re-bound to
the dataset that is really distributed. The first binding never reaches the strategy (issue 9 shapes 2
and 8). Rare, and only in notebooks that demonstrate options."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

dataset = tf.data.Dataset.range(64).batch(16)
options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
dataset = dataset.with_options(options)

GLOBAL_BATCH = 4 * strategy.num_replicas_in_sync
dataset = tf.data.Dataset.range(64).batch(GLOBAL_BATCH)
dist_dataset = strategy.experimental_distribute_dataset(dataset)
''',
    'fn_estimator_section_silences_keras_section': '''\
"""Misses, MG201 and MG102. From tensorflow/docs site/en/guide/migrate/mirrored_strategy.ipynb (code cells
4-6): the guide shows the TF1 Estimator with `RunConfig(train_distribute=strategy)`, then the TF2 Keras
port, which builds model and optimizer in a new strategy's scope and calls `compile` after the block
(Keras 3 fails at `fit`, FACTS.md), on a `.batch(1)` dataset. The Estimator exemption (shape 14) covers the
whole file, so nothing in the Keras half is reported."""
import tensorflow as tf
import tensorflow.compat.v1 as tf1

features, labels = [[1.0, 1.5], [2.0, 2.5]], [[0.3], [0.5]]


def _input_fn():
    return tf1.data.Dataset.from_tensor_slices((features, labels)).batch(1)


def _model_fn(features, labels, mode):
    logits = tf1.layers.Dense(1)(features)
    loss = tf1.losses.mean_squared_error(labels=labels, predictions=logits)
    train_op = tf1.train.AdagradOptimizer(0.05).minimize(loss, global_step=tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


strategy = tf1.distribute.MirroredStrategy()
config = tf1.estimator.RunConfig(train_distribute=strategy, eval_distribute=strategy)
estimator = tf1.estimator.Estimator(model_fn=_model_fn, config=config)
tf1.estimator.train_and_evaluate(
    estimator, tf1.estimator.TrainSpec(input_fn=_input_fn), tf1.estimator.EvalSpec(input_fn=_input_fn)
)

dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)  # expect: MG201
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)
model.compile(optimizer=optimizer, loss="mse")  # expect: MG102
model.fit(dataset)
''',
    'fn_weighted_mean_loss': '''\
"""Misses, MG301. From baicalin/CycleGAN_TF2.2_multiGPU __init__.py l.136 and l.140 (the TensorFlow CycleGAN
tutorial's `calc_cycle_loss`/`identity_loss`, `LAMBDA * tf.reduce_mean(tf.abs(real - cycled))`, run per
replica by `strategy.run`). A per-replica mean multiplied by a weight is still a per-replica mean: the
replicas' gradients are summed, N times too large. Without the `LAMBDA *` the checker reports it."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
LAMBDA = 10
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    optimizer = tf.keras.optimizers.Adam()


def cycle_loss(real, cycled):
    loss = tf.reduce_mean(tf.abs(real - cycled))  # expect: MG301
    return LAMBDA * loss


def train_step(x):
    with tf.GradientTape() as tape:
        loss = cycle_loss(x, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


@tf.function
def distributed_step(x):
    strategy.run(train_step, args=(x,))
''',
    'fn_step_fn_passed_to_run_wrapper': '''\
"""Misses, MG301. From baicalin/CycleGAN_TF2.2_multiGPU __init__.py l.257-266: the step function reaches
`strategy.run` through a parameter of a small `@tf.function` wrapper, `non_eager_run(strategy, train_step,
inputs)`, so it is not recognised as a replica function and its `tf.reduce_mean` loss goes unreported."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    optimizer = tf.keras.optimizers.Adam()


def train_step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.abs(x - model(x, training=True)))  # expect: MG301
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


@tf.function
def run_on_replicas(strategy, step_fn, x):
    strategy.run(step_fn, args=(x,))


dataset = tf.data.Dataset.range(8).map(lambda i: tf.ones((4,))).batch(4 * strategy.num_replicas_in_sync)
for x in strategy.experimental_distribute_dataset(dataset):
    run_on_replicas(strategy, train_step, x)
''',
    'fn_per_device_size_through_local_name': '''\
"""Misses, MG202. From huggingface/transformers examples/tensorflow/text-classification/run_glue.py (stored
version for 4.19.0.dev0, l.124-143 of the copy): `batch_size = training_args.per_device_train_batch_size`
(or `per_device_eval_batch_size`) is bound to a local name, then handed to `to_tf_dataset(batch_size=
batch_size)` and `fit`. Written inline (`batch_size=training_args.per_device_train_batch_size`) the checker
reports MG202; through the local name it does not."""
import tensorflow as tf
from datasets import load_dataset
from transformers import HfArgumentParser, TFAutoModelForSequenceClassification, TFTrainingArguments

(training_args,) = HfArgumentParser((TFTrainingArguments,)).parse_args_into_dataclasses()
datasets = load_dataset("glue", "mrpc")
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-cased")
    model.compile(optimizer="adam")
    batch_size = training_args.per_device_train_batch_size
    # Reported where the batch is made, as MG201 reports a named constant (lead's call).
    train = datasets["train"].to_tf_dataset(columns=["input_ids"], batch_size=batch_size)  # expect: MG202
    model.fit(train)
''',
    'fp_host_numpy_gather_of_predicted_dataset': '''\
"""False alarm, MG201. From leekate/Kaggle-petals-to-the-metal petals_to_the_metal.ipynb (code cell 11, the
submission cell of Kaggle's "Petals to the Metal" TPU starter, copied in many notebooks):
`test_ids = next(iter(test_ids_ds.batch(NUM_TEST_IMAGES))).numpy()` gathers every id into one host-side
numpy array. The batch never reaches the strategy (S6); it is reported because its source dataset also
feeds `model.predict`. With `NUM_TEST_IMAGES` computed (aliraein/Image-Classification-DL-TPU) it is not."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
NUM_TEST_IMAGES = 7382
BATCH_SIZE = 16 * strategy.num_replicas_in_sync

images, ids = np.ones((NUM_TEST_IMAGES, 4), "float32"), np.arange(NUM_TEST_IMAGES)
test_ds = tf.data.Dataset.from_tensor_slices((images, ids)).batch(BATCH_SIZE)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    model.compile(optimizer="adam", loss="mse")

probabilities = model.predict(test_ds.map(lambda image, idnum: image))
test_ids_ds = test_ds.map(lambda image, idnum: idnum).unbatch()
test_ids = next(iter(test_ids_ds.batch(NUM_TEST_IMAGES))).numpy().astype("U")
np.savetxt("submission.csv", np.rec.fromarrays([test_ids, np.argmax(probabilities, axis=-1)]), fmt=["%s", "%d"])
''',
    'fp_demo_forward_pass_before_scope': '''\
"""False alarm, MG101. From tensorflow/text docs/tutorials/bert_glue.ipynb (code cell 16, "Solve GLUE tasks
using BERT on TPU"): the tutorial builds a throw-away classifier outside the scope and calls it once on a
test input to show its raw output; the model it trains is built again inside `with strategy.scope():`
(cell 19). A copy that is only called (a prediction) beside the replicated model is deliberate (MG101's
"only evaluated, used to predict or saved" exemption, issue 9 shape 10)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def build_classifier(num_classes):
    inputs = tf.keras.Input(shape=(8,))
    return tf.keras.Model(inputs, tf.keras.layers.Dense(num_classes)(inputs))


test_model = build_classifier(2)
print(tf.sigmoid(test_model(tf.ones((1, 8)))))

with strategy.scope():
    model = build_classifier(2)
    model.compile(optimizer="adam", loss="mse")
model.fit(tf.ones((64, 8)), tf.ones((64, 2)), batch_size=16 * strategy.num_replicas_in_sync)
''',
    'fp_preprocessing_model_in_data_map': '''\
"""False alarm, MG101. From tensorflow/text docs/tutorials/bert_glue.ipynb (code cells 11, 12, 14 and 19): a
Keras model made only of `hub.KerasLayer`s that wrap the BERT preprocessing SavedModel's functions
(`tokenize`, `bert_pack_inputs`: no variables) is built outside the scope and used only inside a `tf.data`
`map` (and for export). It is never trained or replicated; issue 9 shape 13 and judgement S11 (a hub layer
used only in a `tf.data` `map`) say it stays silent."""
import tensorflow as tf
import tensorflow_hub as hub

strategy = tf.distribute.MirroredStrategy()
PREPROCESS = "https://tfhub.dev/tensorflow/bert_en_uncased_preprocess/3"


def make_preprocess_model(seq_length=128):
    text = tf.keras.layers.Input(shape=(), dtype=tf.string)
    preprocess = hub.load(PREPROCESS)
    tokenizer = hub.KerasLayer(preprocess.tokenize)
    packer = hub.KerasLayer(preprocess.bert_pack_inputs, arguments=dict(seq_length=seq_length))
    return tf.keras.Model(text, packer([tokenizer(text)]))


preprocess_model = make_preprocess_model()
GLOBAL_BATCH = 32 * strategy.num_replicas_in_sync
ds = tf.data.Dataset.from_tensor_slices((["a", "b"], [0, 1])).batch(GLOBAL_BATCH)
ds = ds.map(lambda x, y: (preprocess_model(x), y))
with strategy.scope():
    inputs = tf.keras.Input(shape=(128,), dtype=tf.int32, name="input_word_ids")
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(tf.cast(inputs, tf.float32)))
    model.compile(optimizer="adam", loss="mse")
model.fit(ds)
''',
    'fp_get_strategy_in_init_of_trainer': '''\
"""False alarm, MG103. From tensorflow/models official/legacy/image_classification/resnet/resnet_runnable.py
l.68-72 (the orbit trainer pattern; `self.strategy = tf.distribute.get_strategy()` /
`self._strategy = tf.distribute.get_strategy()` is common across tf-models trainers): the class takes
the *current* strategy with `get_strategy()` in `__init__` and is constructed by its caller inside
`with strategy.scope():`, so what `__init__` creates is already in that scope. A file whose only strategy is
`get_strategy()` gives no evidence of a scope mistake (corpus judgement 16)."""
import tensorflow as tf


class Runnable:
    def __init__(self, build_model):
        # Constructed by the caller inside `with strategy.scope():`; get_strategy() returns that strategy.
        self.strategy = tf.distribute.get_strategy()
        self.model = build_model()
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.train_loss = tf.keras.metrics.Mean("train_loss")

    def train_step(self, iterator):
        def step_fn(inputs):
            images, labels = inputs
            with tf.GradientTape() as tape:
                logits = self.model(images, training=True)
                per_example = tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
                loss = tf.nn.compute_average_loss(per_example)
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
            self.train_loss.update_state(loss)

        self.strategy.run(step_fn, args=(next(iterator),))
''',
    'fp_display_rebatch_of_training_dataset': '''\
"""False alarm, MG201 (at 78439bd; silent at 4c9bbf6, kept as a regression case). From
aliraein/Image-Classification-DL-TPU Kaggle_Image_clf_Ensemble_DL_TPU.ipynb (code cells 10, 11, 21; the
display cells of Kaggle's flower-classification TPU starter): the training dataset is re-batched with
`.unbatch().batch(20)` to draw a grid of 20 images and their predictions on the host. That batch never
reaches the strategy (S6); `predict` gets a tensor, not the dataset."""
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
x, y = np.ones((256, 8), "float32"), np.zeros((256,), "int64")


def get_training_dataset():
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().shuffle(64).batch(BATCH_SIZE)


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(5)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(get_training_dataset(), steps_per_epoch=4, epochs=1)

ds_train = get_training_dataset()
ds_train = ds_train.unbatch().batch(20)
images, labels = next(iter(ds_train))
print(np.argmax(model.predict(images), axis=-1), labels.numpy())
''',
    'fp_estimator_train_call_input_fn': '''\
"""False alarm, MG201. Variant of fp_estimator_input_fn_beside_keras_strategy with the other common
Estimator spelling, `estimator.train(input_fn, steps=...)` (tensorflow/docs site/en/guide/migrate/
tpu_estimator.ipynb code cell 7, and TF1 scripts generally): the checker at 4c9bbf6 and 3a334d9 no longer reports an
`input_fn` handed to `TrainSpec`/`train_and_evaluate`, but still reports one handed to `Estimator.train`."""
import tensorflow as tf
import tensorflow.compat.v1 as tf1

features, labels = [[1.0, 1.5], [2.0, 2.5]], [[0.3], [0.5]]


def _input_fn():
    return tf1.data.Dataset.from_tensor_slices((features, labels)).batch(1)


def _model_fn(features, labels, mode):
    loss = tf1.losses.mean_squared_error(labels, tf1.layers.Dense(1)(features))
    train_op = tf1.train.AdagradOptimizer(0.05).minimize(loss, tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


tf1.estimator.Estimator(model_fn=_model_fn).train(_input_fn, steps=10)

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adagrad", loss="mse")
model.fit(tf.data.Dataset.from_tensor_slices((features, labels)).batch(8 * strategy.num_replicas_in_sync))
''',
    'fp_tuner_hypermodel_enters_scope_itself': '''\
"""False alarm (by the letter of MG106; the message is untrue here). From a public TFX tuner module found
through the code index (index id 33678046393; the index does not name its repository; project
"spaceship_titanic_tuning"): the hypermodel enters `with tf.distribute.MirroredStrategy().scope():` itself
(`build_model_with_strategy`, handed to the tuner through `partial`), so every trial's model is built in a
scope, yet the tuner is reported for lacking `distribution_strategy=` with "builds every trial's model
outside any strategy scope". A hypermodel that enters a scope itself could be exempt."""
import keras_tuner
import tensorflow as tf
from functools import partial


def build_model(hparams, n_features):
    units = hparams.Int("units", 8, 64)
    model = tf.keras.Sequential([tf.keras.Input(shape=(n_features,)), tf.keras.layers.Dense(units)])
    model.compile(optimizer="adam", loss="mse")
    return model


def build_model_with_strategy(hparams, n_features):
    # The strategy should pick all GPUs if available, otherwise all CPUs automatically
    with tf.distribute.MirroredStrategy().scope():
        return build_model(hparams, n_features)


def tuner_fn(fn_args):
    tuner = keras_tuner.RandomSearch(
        partial(build_model_with_strategy, n_features=8),
        max_trials=10,
        objective=keras_tuner.Objective("val_loss", "min"),
        directory=fn_args.working_dir,
    )
    return tuner
''',
}
