"""TFX penguin trainer module with the distribution strategy added to run_fn, factory called in the scope."""
from typing import List

import tensorflow as tf
from tensorflow import keras
from tensorflow_metadata.proto.v0 import schema_pb2
from tensorflow_transform.tf_metadata import schema_utils
from tfx import v1 as tfx
from tfx_bsl.public import tfxio

_FEATURE_KEYS = ["culmen_length_mm", "culmen_depth_mm", "flipper_length_mm", "body_mass_g"]
_LABEL_KEY = "species"
_TRAIN_BATCH_PER_REPLICA = 20
_FEATURE_SPEC = {
    **{f: tf.io.FixedLenFeature(shape=[1], dtype=tf.float32) for f in _FEATURE_KEYS},
    _LABEL_KEY: tf.io.FixedLenFeature(shape=[1], dtype=tf.int64),
}


def _input_fn(file_pattern: List[str], data_accessor: tfx.components.DataAccessor, schema, batch_size: int):
    return data_accessor.tf_dataset_factory(
        file_pattern,
        tfxio.TensorFlowDatasetOptions(batch_size=batch_size, label_key=_LABEL_KEY),
        schema=schema,
    ).repeat()


def _make_keras_model() -> tf.keras.Model:
    inputs = [keras.layers.Input(shape=(1,), name=f) for f in _FEATURE_KEYS]
    d = keras.layers.concatenate(inputs)
    for _ in range(2):
        d = keras.layers.Dense(8, activation="relu")(d)
    outputs = keras.layers.Dense(3)(d)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile(
        optimizer=keras.optimizers.Adam(1e-2),
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model


def run_fn(fn_args: tfx.components.FnArgs):
    schema = schema_utils.schema_from_feature_spec(_FEATURE_SPEC)
    assert isinstance(schema, schema_pb2.Schema)
    strategy = tf.distribute.MirroredStrategy()
    batch_size = _TRAIN_BATCH_PER_REPLICA * strategy.num_replicas_in_sync
    train_dataset = _input_fn(fn_args.train_files, fn_args.data_accessor, schema, batch_size=batch_size)
    eval_dataset = _input_fn(fn_args.eval_files, fn_args.data_accessor, schema, batch_size=batch_size)

    with strategy.scope():
        model = _make_keras_model()
    model.fit(
        train_dataset,
        steps_per_epoch=fn_args.train_steps,
        validation_data=eval_dataset,
        validation_steps=fn_args.eval_steps,
    )
    model.save(fn_args.serving_model_dir, save_format="tf")
