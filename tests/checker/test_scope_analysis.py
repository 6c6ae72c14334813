"""How the analysis reads real training code: import spellings, scope forms,
helpers in both directions, classes, batch-size data flow.

Each case is a small program with ``# expect: CODE`` on the lines that must be
reported; every other line must stay silent.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from mirrorguard.checker import check_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpus"))
from labels import expected_in_source as expectations  # noqa: E402


CASES = {
    "tf_keras_legacy_import": """
        import tensorflow as tf
        import tf_keras as keras
        strategy = tf.distribute.MirroredStrategy()
        model = keras.Sequential([keras.layers.Dense(4)])  # expect: MG101
        model.compile(optimizer="sgd", loss="mse")  # expect: MG102
        model.fit(x, y)  # expect: MG201
    """,
    "compat_v2_and_aliased_strategy": """
        import tensorflow.compat.v2 as tf
        from tensorflow.distribute import MirroredStrategy as MS
        ms = MS(["/gpu:0", "/gpu:1"])
        with ms.scope():
            net = tf.keras.applications.ResNet50(weights=None)
            net.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
        net.fit(ds)
    """,
    "from_imports_of_model_and_applications": """
        import tensorflow as tf
        from tensorflow.keras import Sequential, layers
        from tensorflow.keras.applications import EfficientNetB0
        from tensorflow.keras.models import Model
        strategy = tf.distribute.MirroredStrategy()
        base = EfficientNetB0(include_top=False)  # expect: MG101
        with strategy.scope():
            x = base.output
            head = Model(base.input, layers.Dense(3)(x))
            head.compile(optimizer="adam", loss="mse")
        seq = Sequential()  # expect: MG101
        seq.fit(x, y)  # expect: MG201
    """,
    "preprocess_input_is_no_model": """
        import tensorflow as tf
        from tensorflow.keras.applications.resnet50 import preprocess_input
        strategy = tf.distribute.MirroredStrategy()
        ds = ds.map(lambda x, y: (preprocess_input(x), y))
        with strategy.scope():
            model = tf.keras.applications.resnet50.ResNet50(weights=None)
    """,
    "scope_among_several_context_managers_with_as": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with tf.device("/cpu:0"), strategy.scope() as scope:
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
    """,
    "bound_scope_object_and_inline_constructor_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        scope = strategy.scope()
        with scope:
            model = tf.keras.Sequential()
        with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
            other = tf.keras.Sequential()
            other.compile(optimizer="adam", loss="mse")
        model.compile(optimizer="adam", loss="mse")  # expect: MG102
    """,
    "conditional_scope_object": """
        import contextlib
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy() if MULTI else None
        scope = strategy.scope() if strategy else contextlib.nullcontext()
        with scope:
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
    """,
    "if_strategy_else_branch_is_the_no_strategy_path": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        if strategy.num_replicas_in_sync > 1:
            with strategy.scope():
                model = tf.keras.Sequential()
                model.compile(optimizer="adam", loss="mse")
        else:
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
    """,
    "init_scope_name_scope_and_other_scopes_are_not_strategy_scopes": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with tf.init_scope():
            a = tf.keras.Sequential()  # expect: MG101
        with tf.name_scope("tower"):
            b = tf.keras.Sequential()  # expect: MG101
        with layout_map.scope():
            c = tf.keras.Sequential()  # expect: MG101
        for m in (a, b, c):
            m.fit(ds)
    """,
    "main_function_with_strategy_and_guard": """
        import tensorflow as tf

        def build_model():
            return tf.keras.Sequential([tf.keras.layers.Dense(1)])

        def main():
            strategy = tf.distribute.MirroredStrategy()
            model = build_model()  # expect: MG101
            with strategy.scope():
                model.compile(optimizer="adam", loss="mse")
            model.fit(ds)

        if __name__ == "__main__":
            main()
    """,
    "helper_defined_after_use_and_called_inside": """
        import tensorflow as tf

        def main():
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                model = make()
                compile_it(model)
            model.fit(ds)

        def make():
            return tf.keras.Sequential()

        def compile_it(model):
            model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
    """,
    "transitive_helpers_reported_at_the_outer_call": """
        import tensorflow as tf

        def layers_and_model():
            return tf.keras.Sequential()

        def build_and_compile():
            model = layers_and_model()
            model.compile(optimizer="adam", loss="mse")
            return model

        strategy = tf.distribute.MirroredStrategy()
        model = build_and_compile()  # expect: MG101, MG102
        model.fit(ds)
    """,
    "function_entering_scope_is_fine_wherever_called": """
        import tensorflow as tf

        def build(strategy):
            with strategy.scope():
                model = tf.keras.Sequential()
                model.compile(optimizer="adam", loss="mse")
            return model

        strategy = tf.distribute.MirroredStrategy()
        model = build(strategy)
        model.fit(ds)
    """,
    "uncalled_function_with_strategy_parameter_is_judged_alone": """
        import tensorflow as tf

        def train(strategy, ds):
            model = tf.keras.Sequential()  # expect: MG101
            with strategy.scope():
                model.compile(optimizer="adam", loss="mse")
            model.fit(ds)
    """,
    "uncalled_factory_is_left_to_its_callers": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def build_model(hp):
            model = tf.keras.Sequential()
            model.compile(optimizer=tf.keras.optimizers.Adam(hp.Float("lr", 1e-4, 1e-2)), loss="mse")
            return model

        tuner = kt.Hyperband(build_model, objective="val_loss", distribution_strategy=strategy)
    """,
    "class_with_self_strategy": """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.strategy = tf.distribute.MirroredStrategy()
                with self.strategy.scope():
                    self.model = self._build()
                    self.optimizer = tf.keras.optimizers.Adam()
                self.head = self._build()  # expect: MG101

            def _build(self):
                return tf.keras.Sequential()
    """,
    "instance_method_called_outside": """
        import tensorflow as tf

        class Factory:
            def make(self):
                return tf.keras.Sequential()

        strategy = tf.distribute.MirroredStrategy()
        factory = Factory()
        model = factory.make()  # expect: MG101
        with strategy.scope():
            inside = factory.make()
        model.fit(ds)
    """,
    "model_subclass_defined_in_file": """
        import tensorflow as tf

        class Encoder(tf.keras.Model):
            pass

        class BigEncoder(Encoder):
            pass

        strategy = tf.distribute.MirroredStrategy()
        enc = BigEncoder()  # expect: MG101
        with strategy.scope():
            ok = Encoder()
        enc.fit(ds)
    """,
    "loaders_in_every_spelling": """
        import keras
        import tensorflow as tf
        from tensorflow.keras.models import load_model, model_from_json
        strategy = tf.distribute.MirroredStrategy()
        a = load_model("a.keras")  # expect: MG104
        b = keras.saving.load_model("b.keras")  # expect: MG104
        c = model_from_json(text)  # expect: MG104
        d = tf.keras.models.clone_model(a)  # expect: MG104
        e = tf.keras.Model.from_config(config)  # expect: MG104
        f = tf.saved_model.load("exported")
        for m in (a, b, c, d, e):
            m.fit(ds)
    """,
    "hugging_face_from_pretrained": """
        import tensorflow as tf
        from transformers import TFAutoModelForSequenceClassification
        strategy = tf.distribute.MirroredStrategy()
        model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased")  # expect: MG101
        model.fit(ds)
    """,
    "unreplicated_twin_for_evaluation_is_deliberate": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            replicated = tf.keras.models.load_model(path)
            replicated.compile(optimizer="adam", loss="mse")
        unreplicated = tf.keras.models.load_model(path)
        unreplicated.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        unreplicated.evaluate(ds)
    """,
    "optimizer_and_metrics_flowing_into_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)  # expect: MG103
        auc = tf.keras.metrics.AUC()  # expect: MG103
        schedule = tf.keras.optimizers.schedules.ExponentialDecay(1e-3, 1000, 0.9)
        loss = tf.keras.losses.BinaryCrossentropy()
        unused = tf.keras.optimizers.Adam()
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer=opt, loss=loss, metrics=[auc, "accuracy"])
    """,
    "optimizer_helper_called_outside": """
        import tensorflow as tf

        def make_optimizer(lr):
            return tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(lr))

        strategy = tf.distribute.MirroredStrategy()
        optimizer = make_optimizer(1e-3)  # expect: MG103
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer=optimizer, loss="mse")
    """,
    "custom_loop_state_outside_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential()
        optimizer = tf.keras.optimizers.Adam()  # expect: MG103
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()  # expect: MG103
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")

        def train_step(inputs):
            images, labels = inputs
            with tf.GradientTape() as tape:
                predictions = model(images, training=True)
                loss = loss_object(labels, predictions)
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            train_accuracy.update_state(labels, predictions)
            return loss

        @tf.function
        def distributed_train_step(inputs):
            return strategy.run(train_step, args=(inputs,))
    """,
    "re_and_torch_compile_are_not_keras": """
        import re
        import tensorflow as tf
        import torch
        strategy = tf.distribute.MirroredStrategy()
        pattern = re.compile(r"\\d+")
        fast = torch.compile(module)
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
    """,
    "batch_sizes_constant_derived_and_unknown": """
        import argparse
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        PER_REPLICA = 64
        GLOBAL = PER_REPLICA * strategy.num_replicas_in_sync
        HARDCODED_TPU = 16 * 8
        args = argparse.ArgumentParser().parse_args()
        a = ds.batch(GLOBAL)
        b = ds.batch(PER_REPLICA)  # expect: MG201
        c = ds.batch(HARDCODED_TPU, drop_remainder=True)  # expect: MG201
        d = ds.batch(args.batch_size)
        e = ds.padded_batch(32)  # expect: MG201
        dist = [strategy.experimental_distribute_dataset(x) for x in (a, b, c, d, e)]
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
        model.fit(x, y, batch_size=PER_REPLICA)  # expect: MG201
        model.fit(x, y, GLOBAL)
        model.evaluate(x, y, 256)  # expect: MG201
        model.predict(x, batch_size=256)
    """,
    "augmented_scaling_counts_as_derived": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH = 64
        BATCH *= strategy.num_replicas_in_sync
        ds = ds.batch(BATCH)
    """,
    "multi_line_chain_reports_the_batch_line": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        train = (
            ds.map(parse)
            .shuffle(1000)
            .batch(128)  # expect: MG201
            .prefetch(tf.data.AUTOTUNE)
        )
    """,
    "per_replica_dataset_function": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def dataset_fn(input_context):
            batch = input_context.get_per_replica_batch_size(256)
            return ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id).batch(32)

        dist = strategy.distribute_datasets_from_function(dataset_fn)
        dist2 = strategy.distribute_datasets_from_function(lambda ctx: ds.batch(16))
    """,
    "one_device_strategy_batches_are_judged_too": """
        import tensorflow as tf
        strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
        ds = ds.batch(32)  # expect: MG201
        with strategy.scope():
            model = tf.keras.Sequential()
    """,
    "notebook_cell_using_tf_without_importing_it": """
        from project_setup import *
        strategy = tf.distribute.MirroredStrategy()
        opt = tf.keras.optimizers.Adam(1e-3)  # expect: MG103
        backbone = tf.keras.applications.ResNet50(include_top=False)  # expect: MG101
        with strategy.scope():
            net = tf.keras.Sequential([backbone, tf.keras.layers.Dense(1)])
            net.compile(optimizer=opt, loss="mse")
        ref = tf.keras.models.load_model("ref.keras")  # expect: MG104
        ref.fit(ds)
    """,
    "unreplicated_copy_exported_with_saved_model": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            net = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        spare = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        tf.saved_model.save(spare, "exported")
    """,
    "no_strategy_in_play_means_no_findings": """
        import tensorflow as tf
        model = tf.keras.Sequential()
        model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        model.fit(ds.batch(32))
    """,
    "get_strategy_puts_a_strategy_in_play": """
        import tensorflow as tf
        strategy = tf.distribute.get_strategy()
        model = tf.keras.Sequential()  # expect: MG101
        model.fit(ds)
    """,
    "tpu_helper_returning_strategy": """
        import tensorflow as tf

        def get_strategy():
            try:
                tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
                tf.config.experimental_connect_to_cluster(tpu)
                tf.tpu.experimental.initialize_tpu_system(tpu)
                return tf.distribute.TPUStrategy(tpu)
            except ValueError:
                return tf.distribute.get_strategy()

        strategy = get_strategy()
        BATCH_SIZE = 16 * strategy.num_replicas_in_sync
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds.batch(BATCH_SIZE))
    """,
    "model_distribute_strategy_scope": """
        import tensorflow as tf
        with model.distribute_strategy.scope():
            model.compile(optimizer="adam", loss="mse")
        clone = tf.keras.models.clone_model(model)  # expect: MG104
        clone.fit(ds)
    """,
    "strategy_scope_helper_functions": """
        import tensorflow as tf
        from official.common import distribute_utils
        strategy = distribute_utils.get_distribution_strategy("mirrored", num_gpus=2)
        with distribute_utils.get_strategy_scope(strategy):
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
    """,
    "vectorisation_batch_undone_by_unbatch": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        targets = text_ds.batch(1024).map(vectorize).unbatch()
        train = targets.batch(512)  # expect: MG201
    """,
    "constants_in_other_spellings": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        EPOCHS, BATCH_SIZE = 30, 64
        EVAL_BATCH = 2 ** 8
        a = ds.batch(BATCH_SIZE)  # expect: MG201
        b = ds.batch(EVAL_BATCH)  # expect: MG201
        c = ds.batch(int(128))  # expect: MG201
    """,
    "constant_rescaled_only_after_its_use": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        BATCH_SIZE = 64
        train = ds.batch(BATCH_SIZE)  # expect: MG201
        BATCH_SIZE = 16 * strategy.num_replicas_in_sync
        val = ds.batch(BATCH_SIZE)
    """,
    "classmethod_factory_of_a_model_class": """
        import tensorflow as tf

        class UNet(tf.keras.Model):
            @classmethod
            def from_widths(cls, widths):
                return cls(widths)

        strategy = tf.distribute.MirroredStrategy()
        model = UNet.from_widths([16, 32])  # expect: MG101
        with strategy.scope():
            model.compile(optimizer="adam", loss="mse")
    """,
    "experimental_set_strategy_makes_what_follows_scoped": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        early = tf.keras.Sequential()  # expect: MG101
        tf.distribute.experimental_set_strategy(strategy)
        model = tf.keras.Sequential()
        model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        early.fit(ds)
    """,
    "positional_compile_on_any_model_name": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            m = tf.keras.Sequential()
            ae = tf.keras.Sequential()
        m.compile("adam", "mse")  # expect: MG102
        ae.compile(tf.keras.optimizers.Adam(1e-3), "binary_crossentropy")  # expect: MG102
    """,
    "optimizer_wrapped_aliased_or_handed_to_a_scoped_trainer": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        class Trainer:
            def __init__(self, optimizer):
                with strategy.scope():
                    self.model = tf.keras.Sequential()
                    self.model.compile(optimizer=optimizer, loss="mse")

        base = tf.keras.optimizers.Adam()  # expect: MG103
        wrapped = tf.keras.mixed_precision.LossScaleOptimizer(base)  # expect: MG103
        chosen = wrapped
        other = tf.keras.optimizers.RMSprop()  # expect: MG103
        Trainer(other)
        with strategy.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer=chosen, loss="mse")
    """,
    "keras_tuner_best_model_rebuilt_outside": """
        import keras_tuner as kt
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        tuner = kt.Hyperband(build_model, objective="val_accuracy", distribution_strategy=strategy)
        tuner.search(train_ds, validation_data=val_ds)
        best_hps = tuner.get_best_hyperparameters(1)[0]
        model = tuner.hypermodel.build(best_hps)  # expect: MG101
        model.fit(train_ds, epochs=10)
    """,
    "grad_cam_model_rewires_the_trained_graph": """
        import tensorflow as tf
        from tensorflow import keras
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = keras.applications.Xception(weights=None)
            model.compile(optimizer="adam", loss="categorical_crossentropy")
        model.fit(ds)
        grad_model = keras.Model(model.inputs, [model.get_layer("block14_sepconv2_act").output, model.output])
        with tf.GradientTape() as tape:
            conv_output, preds = grad_model(img)
        base = keras.applications.ResNet50(include_top=False)  # expect: MG101
        head = keras.Model(base.input, keras.layers.Dense(10)(base.output))  # expect: MG101
        head.fit(ds)
    """,
    "strategy_chosen_by_expression_or_helper_under_any_name": """
        import tensorflow as tf

        def get_dist():
            return tf.distribute.MirroredStrategy()

        gpus = tf.config.list_physical_devices("GPU")
        dist = tf.distribute.MirroredStrategy() if len(gpus) > 1 else tf.distribute.OneDeviceStrategy("/gpu:0")
        with dist.scope():
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
        other = get_dist()
        with other.scope():
            second = tf.keras.Sequential()
            second.compile(optimizer="adam", loss="mse")
        fallback = tf.distribute.get_strategy() if other is None else other
        with fallback.scope():
            third = tf.keras.Sequential()
    """,
    "tensorflow_models_bound_strategy_scope": """
        import tensorflow as tf
        from official.common import distribute_utils
        strategy = distribute_utils.get_distribution_strategy(distribution_strategy="mirrored", num_gpus=2)
        strategy_scope = distribute_utils.get_strategy_scope(strategy)
        train_ds = ds.batch(128)  # expect: MG201
        with strategy_scope:
            model = build_model()
        optimizer = tf.keras.optimizers.SGD(0.1)  # expect: MG103
        model.compile(optimizer=optimizer, loss="mse")  # expect: MG102
    """,
    "tf2_optimizer_and_metric_aliases": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        opt = tf.optimizers.Adam(1e-3)  # expect: MG103
        auc = tf.metrics.AUC()  # expect: MG103
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=opt, loss="mse", metrics=[auc])
    """,
    "keras_hub_tokenizers_and_preprocessors_are_no_models": """
        import keras_hub
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        tok = keras_hub.models.BertTokenizer.from_preset("bert_base_en")
        pre = keras_hub.models.GemmaCausalLMPreprocessor.from_preset("gemma_2b_en")
        clf = keras_hub.models.BertClassifier.from_preset("bert_base_en", num_classes=2)  # expect: MG101
        clf.fit(ds)
    """,
    "main_is_the_program_and_its_helpers_are_reported_inside": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        class Trainer:
            def setup(self):
                with strategy.scope():
                    self.model = tf.keras.Sequential()
                    self.model.compile(optimizer="adam", loss="mse")

            def finetune(self):
                self.model.compile(optimizer="sgd", loss="mse")

        def main():
            trainer = Trainer()
            trainer.setup()
            trainer.finetune()  # expect: MG102

        if __name__ == "__main__":
            main()
    """,
    "module_metric_tracked_by_a_custom_train_step": """
        import tensorflow as tf
        from tensorflow import keras
        strategy = tf.distribute.MirroredStrategy()
        loss_tracker = keras.metrics.Mean(name="loss")  # expect: MG103

        class CustomModel(keras.Model):
            def train_step(self, data):
                loss = self.compute_loss(*data)
                loss_tracker.update_state(loss)
                return {"loss": loss_tracker.result()}

        with strategy.scope():
            model = CustomModel(inputs, outputs)
            model.compile(optimizer="adam")
    """,
    "noqa_suppresses": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        baseline = tf.keras.Sequential()  # noqa: MG101
        other = tf.keras.Sequential()  # noqa
        third = tf.keras.Sequential()  # noqa: MG102  # expect: MG101
        for m in (baseline, other, third):
            m.fit(ds)
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case(name):
    source = textwrap.dedent(CASES[name]).lstrip("\n")
    found = {(f.line, f.code) for f in check_source(source, f"{name}.py")}
    assert found == expectations(source)


def test_configured_strategy_factory_puts_a_strategy_in_play():
    from mirrorguard.checker.core import Settings

    source = textwrap.dedent("""
        import tensorflow as tf
        from infra import make_dist
        dist = make_dist()
        model = tf.keras.Sequential()
        with dist.scope():
            model.compile(optimizer="adam", loss="mse")
    """).lstrip("\n")
    assert check_source(source) == []
    found = check_source(source, settings=Settings(extra_strategy_names=("make_dist",)))
    assert [(f.line, f.code) for f in found] == [(4, "MG101")]


def test_configured_model_factory_is_a_model_constructor():
    from mirrorguard.checker.core import Settings

    source = textwrap.dedent("""
        import tensorflow as tf
        from zoo import create_net
        strategy = tf.distribute.MirroredStrategy()
        net = create_net("resnet")
        net.fit(ds)
    """).lstrip("\n")
    # Unknown to be a model: only that nothing uses the strategy is known (MG107).
    assert [(f.line, f.code) for f in check_source(source)] == [(3, "MG107")]
    found = check_source(source, settings=Settings(extra_model_factories=("create_net",)))
    assert [(f.line, f.code) for f in found] == [(4, "MG101")]


def test_resume_branch_that_loads_outside_the_scope_is_reported():
    # Only an if/else that chooses between distributed and single-device code
    # makes the other branch a deliberate no-strategy path; a resume check does not.
    source = textwrap.dedent("""
        import os
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        if os.path.exists("ckpt.keras"):
            model = tf.keras.models.load_model("ckpt.keras")
        else:
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        model.fit(ds)
    """).lstrip("\n")
    assert [(f.line, f.code) for f in check_source(source)] == [(5, "MG104")]


def test_custom_loop_tutorial_restores_an_unreplicated_model_to_evaluate():
    # tensorflow/docs custom_training: after training in the scope, a new model
    # is restored from the checkpoint outside any strategy, only to evaluate.
    source = textwrap.dedent("""
        import tensorflow as tf

        def create_model():
            return tf.keras.Sequential([tf.keras.layers.Dense(10)])

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = create_model()
            optimizer = tf.keras.optimizers.Adam()
            checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)
        eval_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="eval_accuracy")
        new_model = create_model()
        new_optimizer = tf.keras.optimizers.Adam()

        @tf.function
        def eval_step(images, labels):
            predictions = new_model(images, training=False)
            eval_accuracy(labels, predictions)

        checkpoint = tf.train.Checkpoint(optimizer=new_optimizer, model=new_model)
        checkpoint.restore(tf.train.latest_checkpoint("ckpt"))
        for images, labels in test_dataset:
            eval_step(images, labels)
    """).lstrip("\n")
    assert check_source(source) == []


def test_relative_module_import_resolves_for_cross_file_summaries():
    from mirrorguard.checker.core import Settings

    source = textwrap.dedent("""
        import tensorflow as tf
        from . import nets
        strategy = tf.distribute.MirroredStrategy()
        model = nets.build_model()
        model.fit(ds)
    """).lstrip("\n")
    external = {".nets.build_model": frozenset({"MG101"})}
    found = check_source(source, settings=Settings(external=external))
    assert [(f.line, f.code) for f in found] == [(4, "MG101")]


def test_bare_configured_factory_without_import():
    from mirrorguard.checker.core import Settings

    source = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\nnet = create_net()\nnet.fit(ds)\n"
    found = check_source(source, settings=Settings(extra_model_factories=("create_net",)))
    assert [(f.line, f.code) for f in found] == [(3, "MG101")]
