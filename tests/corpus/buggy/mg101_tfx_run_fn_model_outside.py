"""TFX Trainer module file (penguin style) whose run_fn builds the model before entering the scope."""
from typing import List

import tensorflow as tf
from tensorflow import keras
from tfx import v1 as tfx
from tfx_bsl.public import tfxio

_FEATURE_KEYS = ["culmen_length_mm", "culmen_depth_mm", "flipper_length_mm", "body_mass_g"]
_LABEL_KEY = "species"


def _input_fn(file_pattern: List[str], data_accessor: tfx.components.DataAccessor, schema, batch_size: int):
    return data_accessor.tf_dataset_factory(
        file_pattern,
        tfxio.TensorFlowDatasetOptions(batch_size=batch_size, label_key=_LABEL_KEY),
        schema=schema,
    ).repeat()


def _build_keras_model(hidden_units: int = 8) -> tf.keras.Model:
    inputs = [keras.layers.Input(shape=(1,), name=f) for f in _FEATURE_KEYS]
    d = keras.layers.concatenate(inputs)
    for _ in range(2):
        d = keras.layers.Dense(hidden_units, activation="relu")(d)
    outputs = keras.layers.Dense(3)(d)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model


def run_fn(fn_args: tfx.components.FnArgs):
    schema = tfx.utils.parse_pbtxt_file(fn_args.schema_path, None)
    mirrored_strategy = tf.distribute.MirroredStrategy()
    global_batch = 20 * mirrored_strategy.num_replicas_in_sync
    train_dataset = _input_fn(fn_args.train_files, fn_args.data_accessor, schema, batch_size=global_batch)
    eval_dataset = _input_fn(fn_args.eval_files, fn_args.data_accessor, schema, batch_size=global_batch)

    model = _build_keras_model(hidden_units=fn_args.custom_config.get("hidden_units", 8))  # expect: MG101, MG102
    with mirrored_strategy.scope():
        model.summary(print_fn=print)

    model.fit(
        train_dataset,
        steps_per_epoch=fn_args.train_steps,
        validation_data=eval_dataset,
        validation_steps=fn_args.eval_steps,
    )
    model.save(fn_args.serving_model_dir, save_format="tf")
