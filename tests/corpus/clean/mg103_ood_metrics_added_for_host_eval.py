"""Clean (MG103, issue 17): metrics added to the step's dict after the scope, read only by host-side evaluation.

Shape of google/uncertainty-baselines baselines/clinc_intent/deterministic.py (l.275-350): the
training metrics are made in the scope; after it, "OOD metrics outside the accelerator scope
for CPU eval" join the same `metrics` dict (`metrics.update({'test/auroc_all': AUC(...)})`).
The training `step_fn` given to `strategy.run` reads only its own `train/...` keys; the
evaluation `test_step` (whose inner function is also named `step_fn`, but is called directly,
never given to `strategy.run`) reads the AUC keys. The whole dict is read on the host only to
log and reset results.
"""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH = 8 * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    metrics = {
        "train/loss": tf.keras.metrics.Mean(),
        "train/accuracy": tf.keras.metrics.SparseCategoricalAccuracy(),
    }

metrics.update({"test/auroc_all": tf.keras.metrics.AUC(curve="ROC"),
                "test/auprc_all": tf.keras.metrics.AUC(curve="PR")})


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(features, training=True)
            loss = tf.nn.compute_average_loss(
                tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True),
                global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        metrics["train/loss"].update_state(loss)
        metrics["train/accuracy"].update_state(labels, logits)

    strategy.run(step_fn, args=(next(iterator),))


@tf.function
def test_step(iterator, num_steps):
    def step_fn(inputs):
        features, labels = inputs
        probs = tf.nn.softmax(model(features, training=False))
        ood_labels = tf.cast(labels == 1, labels.dtype)
        metrics["test/auroc_all"].update_state(ood_labels, probs[:, 1])
        metrics["test/auprc_all"].update_state(ood_labels, probs[:, 1])

    for _ in tf.range(num_steps):
        step_fn(next(iterator))


data = tf.data.Dataset.from_tensor_slices((tf.random.normal([64, 4]),
                                           tf.random.uniform([64], maxval=2, dtype=tf.int32)))
train_iterator = iter(strategy.experimental_distribute_dataset(data.repeat().batch(GLOBAL_BATCH)))
train_step(train_iterator)
test_step(iter(data.repeat().batch(8)), 2)
results = {name: metric.result() for name, metric in metrics.items()}
for metric in metrics.values():
    metric.reset_state()
