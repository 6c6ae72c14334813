"""Red-team round 3: minimal reproductions of where `mirrorguard check` disagreed with hand labels of 46
unseen real public files (see README_round3.md in this folder for the per-file table).

Same format as cases.py and cases_round2.py: CASES maps a name to a source. Each source opens with a
docstring naming the real file it came from and why; `# expect: MGxxx` marks a line where a finding is
expected, and every other line must stay silent. Names starting `fp_` are false alarms of the checker
(main 8d29e45, 2026-12-01), `fn_` are misses.
"""

CASES = {
    'fp_keras_cv_augmenter_sequential': '''\
"""False alarm, MG101. From keras-team/keras-cv examples/training/object_detection/pascal_voc/retinanet.py
l.115 and keras_cv/src/tools/training_scipts/Training_YOLOv8.ipynb c5:65: a `keras.Sequential` of
keras_cv's box-aware augmentation layers (RandomFlip, JitteredResize), made outside the scope and used
only in a `tf.data` `map`. They hold no weights (issue 9 shape 13); the checker knows the keras.layers
spellings but not keras_cv.layers ones. The keras-cv/keras-io detection guides all carry this block."""
import keras
import keras_cv
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
augmenter = keras.Sequential(
    layers=[
        keras_cv.layers.RandomFlip(mode="horizontal", bounding_box_format="xywh"),
        keras_cv.layers.JitteredResize(target_size=(640, 640), scale_factor=(0.8, 1.25), bounding_box_format="xywh"),
    ]
)
global_batch = 4 * strategy.num_replicas_in_sync
train_ds = tf.data.Dataset.range(8).batch(global_batch).map(augmenter)
with strategy.scope():
    model = keras_cv.models.RetinaNet(num_classes=20, bounding_box_format="xywh")
    model.compile(optimizer="sgd", classification_loss="focal", box_loss="smoothl1")
model.fit(train_ds, epochs=1)
''',
    'fp_serving_copy_of_subclass_restored_from_checkpoint': '''\
"""False alarm, MG101. From tensorflow/recommenders docs/examples/tpu_embedding_layer.ipynb c30:1: after
training on TPU, the guide builds `cpu_model = EmbeddingModel()` (its own keras.Model subclass) outside
the scope, restores it from the TPU model's checkpoint, restores its embedding layer from a checkpoint of
the TPU model's layer (`tf.train.Checkpoint(embedding=cpu_model.embedding_layer)`), and calls it on a CPU
batch. A deliberate unreplicated serving copy (issue 9 shape 10); without the layer checkpoint it is left
alone, so handing a layer of the copy to a checkpoint is what makes it count as used."""
import tensorflow as tf


class EmbeddingModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = EmbeddingModel()
    model.compile(optimizer="adagrad", loss="mse")
path = tf.train.Checkpoint(model=model).save("/tmp/tpu-model")

cpu_model = EmbeddingModel()
tf.train.Checkpoint(model=cpu_model).restore(path)
layer_path = tf.train.Checkpoint(embedding=model.dense).save("/tmp/tpu-embedding")
tf.train.Checkpoint(embedding=cpu_model.dense).restore(layer_path)
prediction = cpu_model(tf.zeros([4, 8]))
''',
    'fp_export_copy_from_compiling_factory': '''\
"""False alarm, MG101 + MG102 (factory call) and MG101 (wrapper). From tensorflow/tpu
tools/colab/keras_mnist_tpu.ipynb c13:23, c13:27: to export, the colab rebuilds the model with its
factory (which also compiles) outside the scope, copies the trained weights into it with
`set_weights(model.get_weights())`, wraps it in an `ExportModel(tf.keras.Model)` with a serving
`tf.function`, and `tf.saved_model.save`s the wrapper. The copy is never trained: a deliberate
export copy (issue 9 shape 10; judgement 25: compile included)."""
import tensorflow as tf


def make_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10, activation="softmax")])
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    return model


class ExportModel(tf.keras.Model):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @tf.function(input_signature=[tf.TensorSpec([None, 784], tf.float32)])
    def serve(self, images):
        return {"digits": tf.argmax(self.model(images), axis=-1)}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = make_model()
restored_model = make_model()
restored_model.set_weights(model.get_weights())
serving_model = ExportModel(restored_model)
tf.saved_model.save(serving_model, "/tmp/export", signatures={"serving_default": serving_model.serve})
''',
    'fp_display_helper_given_a_literal_through_a_name': '''\
"""False alarm, MG201. From tensorflow/tpu tools/colab/keras_mnist_tpu.ipynb c8:3 (the TPU starter's
`dataset_to_numpy_util`, 10+ copies): `N = 24` is handed to a display helper that re-batches the
training dataset with `unbatch().batch(N)` and pulls one batch to numpy, eagerly or, on TF1, through
`make_one_shot_iterator(...).get_next()` and `Session.run`. Nothing reaches the strategy; the eager
branch alone is not reported, the TF1 fallback branch (even without the `Session.run`) is."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def dataset_to_numpy_util(training_dataset, n):
    batch_train_ds = training_dataset.unbatch().batch(n)
    if tf.executing_eagerly():
        for training_digits, training_labels in batch_train_ds:
            training_digits = training_digits.numpy()
            break
    else:
        t_images, t_labels = tf.compat.v1.data.make_one_shot_iterator(batch_train_ds).get_next()
        with tf.compat.v1.Session() as ses:
            training_digits, training_labels = ses.run([t_images, t_labels])
    return training_digits, training_labels


N = 24
digits, labels = dataset_to_numpy_util(tf.data.Dataset.range(64).batch(8 * strategy.num_replicas_in_sync), N)
''',
    'fp_host_vocabulary_batch_of_training_source': '''\
"""False alarm, MG201 x2. From tensorflow/recommenders docs/examples/diststrat_retrieval.ipynb c5:25 and
c7:18: the ratings dataset that later feeds `fit` is also batched with a literal to collect the user ids
on the host (`np.unique(np.concatenate(list(...)))`), and the movie titles are batched to build the
FactorizedTopK metric's candidate index (`movies.batch(128).map(movie_model)`), which the metric scans
itself; neither dataset is given to fit, evaluate or the strategy. `movies.batch(1_000)` just above,
iterated the same way, is not reported. The TFRS retrieval tutorials all have both lines."""
import numpy as np
import tensorflow as tf
import tensorflow_recommenders as tfrs

strategy = tf.distribute.MirroredStrategy()
ratings = tf.data.Dataset.from_tensor_slices({"user_id": ["a", "b"], "movie_title": ["x", "y"]})
movies = tf.data.Dataset.from_tensor_slices(["x", "y"])
user_ids = ratings.batch(1_000_000).map(lambda x: x["user_id"])
unique_user_ids = np.unique(np.concatenate(list(user_ids)))
with strategy.scope():
    movie_model = tf.keras.Sequential([tf.keras.layers.StringLookup(vocabulary=["x", "y"]),
                                       tf.keras.layers.Embedding(3, 8)])
    metrics = tfrs.metrics.FactorizedTopK(candidates=movies.batch(128).map(movie_model))
global_batch = 64 * strategy.num_replicas_in_sync
train = ratings.shuffle(100).batch(global_batch)
''',
    'fp_batched_dataset_never_distributed': '''\
"""False alarm, MG201 (rare). From tensorflow/tpu tools/colab/custom_training.ipynb c10:25: the test
dataset is batched with a literal, but the test iterator is made from the *train* dataset (a typo in the
colab), so the batched test dataset never reaches the strategy. The train batch is a real finding."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 32
train_dataset = tf.data.Dataset.range(64).batch(BATCH_SIZE, drop_remainder=True)  # expect: MG201
# Issue 17 (relabelled; was the lead's call that a batch left unused to the end is still the global
# batch): a batched dataset that nothing reads is not a global batch. The bug here is the iterator.
test_dataset = tf.data.Dataset.range(64).batch(BATCH_SIZE, drop_remainder=True)
train_iterator = iter(strategy.experimental_distribute_dataset(train_dataset))
test_iterator = iter(strategy.experimental_distribute_dataset(train_dataset))
''',
    'fn_negated_mean_loss': '''\
"""Miss, MG301. From google-research/seed_rl agents/vtrace/learner.py l.111 and agents/sac/learner.py
l.156, l.163: a policy-gradient loss is the *negated* mean, `-tf.reduce_mean(logp * advantage)`, run per
replica by `training_strategy.run`. `0.5 * tf.reduce_mean(...)` is found; the unary minus hides it.
`-tf.reduce_mean(` is the standard spelling of every policy-gradient and log-likelihood loss."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD()


def step(x, advantage):
    with tf.GradientTape() as tape:
        logp = tf.nn.log_softmax(model(x))
        loss = -tf.reduce_mean(logp * advantage)  # expect: MG301
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


strategy.run(step, args=(tf.zeros([4, 3]), tf.ones([4, 2])))
''',
    'fn_negated_mean_name_and_subtracted_term': '''\
"""Miss, MG301 x2. From google-research/seed_rl agents/vtrace/learner.py l.119-121 (`entropy =
tf.reduce_mean(...)`, then `entropy_loss = c * -entropy`) and agents/sac/learner.py l.157-158
(`actor_loss -= c * tf.reduce_mean(entropy)`): an entropy bonus subtracted from the loss is a term of
the differentiated loss like any other; `loss += ...` is found, `-=` and `* -name` are not."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD()


def step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x)
        per_example = tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=8)
        probs = tf.nn.softmax(logits)
        entropy = tf.reduce_mean(-tf.reduce_sum(probs * tf.math.log(probs), axis=-1))  # expect: MG301
        loss += 0.01 * -entropy
        loss -= 0.01 * tf.reduce_mean(tf.reduce_max(probs, axis=-1))  # expect: MG301
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


strategy.run(step, args=(tf.zeros([4, 3]), tf.zeros([4], tf.int32)))
''',
    'fn_weighted_term_of_long_sum_in_helper': '''\
"""Miss, MG301. From google-research/seed_rl agents/vtrace/learner.py l.116 (`v_loss = FLAGS.baseline_cost
* 0.5 * tf.reduce_mean(tf.square(v_error))`, summed with four other terms by `compute_loss`): a weighted
mean is found when the helper's total has two terms, and lost when it has three or more (the unweighted
mean beside it is still found)."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD()


def compute_loss(x, y):
    out = model(x)
    v_loss = 0.5 * tf.reduce_mean(tf.square(y - out))  # expect: MG301
    kl_loss = tf.reduce_mean(out)  # expect: MG301
    total_loss = v_loss + kl_loss + 0.0
    return total_loss


def step(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(x, y)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


strategy.run(step, args=(tf.zeros([4, 3]), tf.zeros([4, 1])))
''',
    'fn_strategy_returned_by_imported_helper': '''\
"""Miss, MG101 x2, MG103, MG102. From DorBernsohn/kaggle
Contradictory_classification/Contradictory_classification.ipynb c13, c19, c23: the TPU strategy comes
from the author's own helper module (`from setup import set_TPU`; `strategy = set_TPU()`, which returns
a `TPUStrategy`) and is used for `num_replicas_in_sync`, but no scope is ever entered: every model,
optimizer and compile is outside. The file is treated as having no strategy, so nothing is reported.
`from X import strategy` (round 2) is handled; a strategy returned by an imported function is not. The
`get_strategy()`/`set_TPU()`/`init_tpu()` helper-module idiom is common in Kaggle repositories.
(Issue 17: a model never used is no finding, so the case now calls the transformer on the inputs, as such
notebooks' model builders do.)"""
import tensorflow as tf
from setup import set_TPU
from transformers import TFAutoModel

strategy = set_TPU()
BATCH_SIZE = 16 * strategy.num_replicas_in_sync
input_ids = tf.keras.Input(shape=(64,), dtype=tf.int32)
model = TFAutoModel.from_pretrained("bert-base-multilingual-uncased")  # expect: MG101
features = model(input_ids)[0]
optimizer = tf.keras.optimizers.Adam(learning_rate=2e-5)  # expect: MG103
head = tf.keras.Sequential([tf.keras.layers.Dense(3)])  # expect: MG101
head.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")  # expect: MG102
''',
    'fp_trainer_reads_its_ambient_strategy': '''\
"""False alarm, MG103 (lead, from round 1's real tensorflow/models resnet_runnable.py l.60-72, which its
minimal case did not fully reproduce): the trainer takes `self.strategy = tf.distribute.get_strategy()`
in `__init__` and later reads `self.strategy.num_replicas_in_sync`; reading the ambient strategy is no
sign `__init__` must enter a scope of its own (it runs in its caller's)."""
import tensorflow as tf


class Runnable:
    def __init__(self, flags):
        self.strategy = tf.distribute.get_strategy()
        self.batch_size = flags.batch_size // self.strategy.num_replicas_in_sync
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.train_loss = tf.keras.metrics.Mean("train_loss")
        self.checkpoint = tf.train.Checkpoint(optimizer=self.optimizer)
''',
}
