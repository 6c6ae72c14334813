"""The reference script's two training loops as replica-oracle build functions.

    python -m mirrorguard.testkit.verify mirrorguard/testkit/reference.py::build_fit --strict
    python -m mirrorguard.testkit.verify mirrorguard/testkit/reference.py::build_custom_loop --strict

:func:`build_fit` is the scope block of :func:`mirrorguard.train.train_with_fit` and
:func:`build_custom_loop` that of :func:`mirrorguard.train.train_with_custom_loop`,
with their training step, on the small ResNet of :func:`mirrorguard.train.build_model`.
The model, the optimizer settings and the data pipeline are imported from the
script; the custom loop's replica step is a closure inside ``train_with_custom_loop``
that cannot be reached from outside, so its body is repeated here line for line.

The small ResNet has BatchNormalization, whose per-replica statistics make 1 and N
replicas differ by design. :func:`oracle_data` therefore hands the oracle global
batches made of copies of one per-replica share
(:func:`mirrorguard.testkit.oracle.repeat_replica_shares`): every replica count
then sees the same batch statistics, and ``--strict`` compares the loops exactly.
"""

from __future__ import annotations

GLOBAL_BATCH = 16  # the default of `mirrorguard verify` for replicas 1,2
REPLICAS = (1, 2)
IMAGE_SIZE = 16
LEARNING_RATE = 1e-3  # the script's default --learning-rate


def _data():
    import tensorflow as tf

    from mirrorguard.train import make_pipeline
    from mirrorguard.training import datasets

    data = datasets.load(tf, "synthetic", 0.2, 0, None)
    return data, make_pipeline(data.train, data, IMAGE_SIZE, 1).unbatch()


def oracle_data():
    """The script's synthetic data, preprocessed as it trains on it, in global batches of shared shares."""
    from mirrorguard.testkit.oracle import repeat_replica_shares

    return repeat_replica_shares(_data()[1], GLOBAL_BATCH, REPLICAS)


def _shape():
    data, _ = _data()
    return (IMAGE_SIZE, IMAGE_SIZE, data.channels), data.num_classes


def build_fit(strategy):
    """``train_with_fit``'s scope block: the compiled small ResNet."""
    import tensorflow as tf

    from mirrorguard.train import build_model

    input_shape, num_classes = _shape()
    tf.keras.utils.set_random_seed(0)  # as the script does (--seed): the same start on every run
    with strategy.scope():
        model = build_model("small-resnet", input_shape, num_classes)
        model.compile(
            optimizer=tf.keras.optimizers.Adam(learning_rate=LEARNING_RATE),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(),
            metrics=["accuracy"],
        )
    return model


def build_custom_loop(strategy):
    """``train_with_custom_loop``'s scope block and its distributed training step."""
    import tensorflow as tf

    from mirrorguard.train import build_model, make_train_step

    input_shape, num_classes = _shape()
    tf.keras.utils.set_random_seed(0)
    with strategy.scope():
        model = build_model("small-resnet", input_shape, num_classes)
        optimizer = tf.keras.optimizers.Adam(learning_rate=LEARNING_RATE)
        optimizer.build(model.trainable_variables)
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")
        train_loss = tf.keras.metrics.Mean(name="loss")
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="accuracy")

    # The script's own step (mirrorguard.train.make_train_step), not a copy of it.
    step = make_train_step(strategy, model, optimizer, loss_object, train_loss, train_accuracy, GLOBAL_BATCH)

    def distributed_train_step(batch):
        images, labels = batch
        step(images, labels)
        # What the script prints after each epoch: the metrics, reduced across replicas.
        return {"loss": train_loss.result(), "accuracy": train_accuracy.result()}

    return model, distributed_train_step
