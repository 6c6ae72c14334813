"""Clean (MG106 false alarm until issue 17): a TFX module file whose `run_fn` makes its own MirroredStrategy
and whose `tuner_fn` builds a tuner without one.

Style: tensorflow/tfx tfx/examples/penguin/penguin_utils_keras.py: `tuner_fn` returns
`kerastuner.RandomSearch(_make_keras_model, ...)` and `run_fn` builds the final model
under `tf.distribute.MirroredStrategy().scope()`. The TFX Tuner component calls
`tuner_fn` on its own; the strategy lives in `run_fn` and never reaches it. Issue 17
part 1: "code on a path where no strategy exists is not judged: ... a tuner in a
function that never sees the strategy of another function of the file (TFX's
`tuner_fn` beside `run_fn`)". Formerly buggy/b10_mg106_tfx_tuner_fn_with_mirrored_run_fn.py
(buggy/mg106_tfx_tuner_fn_with_mirrored_run_fn.py once the corpus was named by rule).
"""
import keras_tuner
import tensorflow as tf
from tfx import v1 as tfx
from tfx_bsl.public import tfxio

_FEATURES = ["culmen_length_mm", "culmen_depth_mm", "flipper_length_mm", "body_mass_g"]


def _make_keras_model(hparams):
    inputs = [tf.keras.layers.Input(shape=(1,), name=f) for f in _FEATURES]
    d = tf.keras.layers.concatenate(inputs)
    for _ in range(int(hparams.get("num_layers"))):
        d = tf.keras.layers.Dense(8, activation="relu")(d)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3)(d))
    model.compile(optimizer=tf.keras.optimizers.Adam(hparams.get("learning_rate")),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    return model


class CVTuner(keras_tuner.Tuner):
    def run_trial(self, trial, x, validation_data):
        model = self.hypermodel.build(trial.hyperparameters)
        model.fit(x, epochs=2)
        return model.evaluate(validation_data, return_dict=True)["loss"]


def tuner_fn(fn_args):
    tuner = keras_tuner.RandomSearch(
        _make_keras_model,
        max_trials=6,
        objective=keras_tuner.Objective("val_sparse_categorical_accuracy", "max"),
        directory=fn_args.working_dir,
        project_name="penguin_tuning",
    )
    return tfx.components.TunerFnResult(tuner=tuner, fit_kwargs={"x": fn_args.train_files})


def cv_tuner_fn(fn_args):
    cv_tuner = CVTuner(hypermodel=_make_keras_model, oracle=keras_tuner.oracles.RandomSearchOracle(max_trials=3))
    return tfx.components.TunerFnResult(tuner=cv_tuner, fit_kwargs={"x": fn_args.train_files})


def run_fn(fn_args):
    hparams = keras_tuner.HyperParameters.from_config(fn_args.hyperparameters)
    mirrored_strategy = tf.distribute.MirroredStrategy()
    options = tfxio.TensorFlowDatasetOptions(batch_size=20 * mirrored_strategy.num_replicas_in_sync, label_key="species")
    train_dataset = fn_args.data_accessor.tf_dataset_factory(fn_args.train_files, options, fn_args.schema)
    with mirrored_strategy.scope():
        model = _make_keras_model(hparams)
    model.fit(train_dataset, steps_per_epoch=fn_args.train_steps)
    model.save(fn_args.serving_model_dir)
