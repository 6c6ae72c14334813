"""Training programs for the replica oracle: correct ones and each numeric tf.distribute mistake.

Every program is a ``build(strategy)`` function as :func:`mirrorguard.testkit.compare_replicas`
takes it. They train a small regression model on :data:`DATA` (SGD, so that an update scaled
by N shows in the weights; Adam where its scale invariance matters). The Keras flavour is
the process's (``tf.keras``, following TF_USE_LEGACY_KERAS). Imported after the CPU is split.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from losses_elsewhere import mean_squared_error

keras = tf.keras
GLOBAL_BATCH = 16
_rng = np.random.default_rng(0)
_x = _rng.normal(size=(64, 5)).astype("float32")
DATA = (_x, (_x @ _rng.normal(size=(5, 1)) + 0.1).astype("float32"))
_images = _rng.uniform(size=(64, 4, 4, 1)).astype("float32")
IMAGE_DATA = (_images, _images.sum(axis=(1, 2)).astype("float32"))

PROGRAMS = {}


def program(function):
    PROGRAMS[function.__name__] = function
    return function


def _mlp(regularised=False, extra=()):
    regulariser = keras.regularizers.L2(0.1) if regularised else None
    return keras.Sequential([
        keras.Input((5,)),
        keras.layers.Dense(8, activation="tanh", kernel_regularizer=regulariser),
        *extra,
        keras.layers.Dense(1),
    ])


# --- fit -------------------------------------------------------------------------------


@program
def fit_correct(strategy):
    with strategy.scope():
        model = _mlp()
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return model


@program
def fit_regularised(strategy):
    # fit scales the regularisation loss itself.
    with strategy.scope():
        model = _mlp(regularised=True)
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return model


@program
def fit_dropout(strategy):
    with strategy.scope():
        model = _mlp(extra=[keras.layers.Dropout(0.5)])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return model


@program
def fit_batchnorm(strategy):
    with strategy.scope():
        model = _mlp(extra=[keras.layers.BatchNormalization()])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return model


@program
def fit_random_augmentation(strategy):
    with strategy.scope():
        model = keras.Sequential([
            keras.Input((4, 4, 1)),
            keras.layers.RandomFlip("horizontal_and_vertical", seed=1),
            keras.layers.Conv2D(2, 2),
            keras.layers.Flatten(),
            keras.layers.Dense(1),
        ])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return model


class MeanStepModel(keras.Model):
    """A train_step override with the single-device habit: tf.reduce_mean of the batch."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"loss": loss}


class RescalingStepModel(keras.Model):
    """A train_step override that divides what Keras's loss already divided by the replicas."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            predictions = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=predictions)
            loss = loss / tf.distribute.get_strategy().num_replicas_in_sync
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"loss": loss}


def _functional(cls):
    inputs = keras.Input((5,))
    hidden = keras.layers.Dense(8, activation="tanh")(inputs)
    return cls(inputs, keras.layers.Dense(1)(hidden))


@program
def fit_train_step_mean(strategy):
    with strategy.scope():
        model = _functional(MeanStepModel)
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return model


@program
def fit_train_step_rescaled(strategy):
    with strategy.scope():
        model = _functional(RescalingStepModel)
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
    return model


# --- custom loops ------------------------------------------------------------------------


def _custom(strategy, loss_fn, *, regularised=False, report=None, counter=None, optimizer_outside=False):
    """A custom loop; ``loss_fn(labels, predictions, model)`` is the replica's loss."""
    if optimizer_outside:
        optimizer = keras.optimizers.SGD(0.05)
    with strategy.scope():
        model = _mlp(regularised=regularised)
        if not optimizer_outside:
            optimizer = keras.optimizers.SGD(0.05)

    def step(batch):
        x, y = batch
        with tf.GradientTape() as tape:
            predictions = model(x, training=True)
            loss = loss_fn(y, predictions, model)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        if counter is not None:
            counter.assign_add(1)
        return report(y, predictions) if report else loss

    @tf.function
    def train_step(batch):
        return strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None)

    return model, train_step


def _per_example(y, predictions):
    return tf.reduce_sum(tf.square(y - predictions), axis=-1)


def _average(y, predictions, model=None):
    return tf.nn.compute_average_loss(_per_example(y, predictions), global_batch_size=GLOBAL_BATCH)


@program
def custom_correct(strategy):
    return _custom(strategy, _average)


@program
def custom_reduce_mean(strategy):
    return _custom(strategy, lambda y, p, model: tf.reduce_mean(_per_example(y, p)))


@program
def custom_mean_in_helper(strategy):
    return _custom(strategy, lambda y, p, model: mean_squared_error(y, p))


class MeanSquaredError:
    """A loss class of the user's own that reduces like a single-device loss."""

    def __call__(self, labels, predictions):
        return tf.reduce_mean(tf.square(labels - predictions))


@program
def custom_loss_class(strategy):
    loss_object = MeanSquaredError()
    return _custom(strategy, lambda y, p, model: loss_object(y, p))


@program
def custom_per_replica_batch(strategy):
    per_replica = GLOBAL_BATCH // strategy.num_replicas_in_sync
    return _custom(
        strategy, lambda y, p, model: tf.nn.compute_average_loss(_per_example(y, p), global_batch_size=per_replica)
    )


@program
def custom_divided_twice(strategy):
    return _custom(strategy, lambda y, p, model: _average(y, p) / strategy.num_replicas_in_sync)


@program
def custom_regulariser_unscaled(strategy):
    return _custom(strategy, lambda y, p, model: _average(y, p) + tf.add_n(model.losses), regularised=True)


@program
def custom_regulariser_scaled(strategy):
    return _custom(
        strategy,
        lambda y, p, model: _average(y, p) + tf.nn.scale_regularization_loss(tf.add_n(model.losses)),
        regularised=True,
    )


@program
def custom_counter_outside(strategy):
    steps_seen = tf.Variable(0, trainable=False)  # outside the scope: one copy, every replica adds 1
    return _custom(strategy, _average, counter=steps_seen)


@program
def custom_optimizer_outside(strategy):
    return _custom(strategy, _average, optimizer_outside=True)


@program
def custom_reported_summed(strategy):
    # Trains right, reports the sum of the replicas' means.
    return _custom(strategy, _average, report=lambda y, p: tf.reduce_mean(_per_example(y, p)))


DATA_OF = {"fit_random_augmentation": IMAGE_DATA}
STRICT = {"fit_batchnorm_strict": "fit_batchnorm"}
