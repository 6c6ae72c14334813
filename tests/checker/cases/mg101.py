"""MG101's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
    # --- if __name__ == "__main__": the guard's calls are judged where they are
    "main_guard_factory_inside_scope": """
        import tensorflow as tf

        def build_model():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
            return model

        if __name__ == "__main__":
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                model = build_model()
            model.fit(ds)
    """,
    "main_guard_factory_outside_scope": """
        import tensorflow as tf

        def build_model():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
            return model

        if __name__ == "__main__":
            strategy = tf.distribute.MirroredStrategy()
            model = build_model()  # expect: MG101, MG102
            model.fit(ds)
    """,
    "main_guard_statement_call_is_the_program": """
        import sys
        import tensorflow as tf

        def main():
            strategy = tf.distribute.MirroredStrategy()
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # expect: MG101
            with strategy.scope():
                model.compile(optimizer="adam", loss="mse")

        if __name__ == "__main__":
            sys.exit(main())
    """,
    # --- star imports make only their names unknown
    "star_import_beside_tf": """
        from os.path import *
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # expect: MG101
    """,
    # --- scopes entered through expressions and helpers
    "scope_from_helper_returning_scope_or_nullcontext": """
        import contextlib
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def maybe_scope():
            return strategy.scope() if strategy else contextlib.nullcontext()

        with maybe_scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
    """,
    "scope_bound_conditionally_then_entered": """
        import contextlib
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        ctx = strategy.scope() if use_dist else contextlib.nullcontext()
        with ctx:
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        other = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # expect: MG101
        other.fit(ds)
    """,
    "scope_through_exit_stack_ends_with_its_block": """
        import contextlib
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with contextlib.ExitStack() as stack:
            stack.enter_context(strategy.scope())
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        late = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # expect: MG101
        late.fit(ds)
    """,
    # --- strategies never bound to a plain name
    "strategies_in_a_parametrize_list_and_passed_inline": """
        import pytest
        import tensorflow as tf
        from types import SimpleNamespace

        STRATEGIES = [tf.distribute.MirroredStrategy(), tf.distribute.OneDeviceStrategy("/cpu:0")]

        @pytest.mark.parametrize("strategy", STRATEGIES)
        def test_fit(strategy):
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer="adam", loss="mse")

        @pytest.mark.parametrize("strategy", STRATEGIES)
        def test_fit_wrong(strategy):
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # expect: MG101
            with strategy.scope():
                model.compile(optimizer="adam", loss="mse")

        cfg = SimpleNamespace(strategy=tf.distribute.MirroredStrategy())
        with cfg.strategy.scope():
            inside = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        def run(dist):
            with dist.scope():
                return tf.keras.Sequential([tf.keras.layers.Dense(1)])

        run(tf.distribute.MirroredStrategy())
    """,
    # --- constructors run __init__
    "constructor_inside_and_outside_names_the_class": """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                self.optimizer = tf.keras.optimizers.Adam()
                self.model.compile(optimizer=self.optimizer, loss="mse")

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            trainer = Trainer()
        baseline = Trainer()  # expect: MG101, MG102
    """,
    "partial_factory_called_outside": """
        import functools
        import tensorflow as tf

        def build(units):
            return tf.keras.Sequential([tf.keras.layers.Dense(units)])

        strategy = tf.distribute.MirroredStrategy()
        factory = functools.partial(build, 4)
        model = factory()  # expect: MG101
        model.fit(ds)
        with strategy.scope():
            good = factory()
    """,
    # --- weightless preprocessing models
    "augmentation_sequential_outside_is_fine": """
        import tensorflow as tf
        from tensorflow import keras
        strategy = tf.distribute.MirroredStrategy()
        data_augmentation = keras.Sequential(
            [keras.layers.RandomFlip("horizontal"), keras.layers.RandomRotation(0.1), keras.layers.Rescaling(1 / 255)]
        )
        with strategy.scope():
            inputs = keras.Input((32, 32, 3))
            x = data_augmentation(inputs)
            outputs = keras.layers.Dense(10)(keras.layers.Flatten()(x))
            model = keras.Model(inputs, outputs)
            model.compile(optimizer="adam", loss="mse")
    """,
    "augmentation_with_a_normalization_layer_holds_state": """
        import tensorflow as tf
        from tensorflow import keras
        strategy = tf.distribute.MirroredStrategy()
        data_augmentation = keras.Sequential([keras.layers.Normalization(), keras.layers.RandomFlip()])  # expect: MG101
        with strategy.scope():
            inputs = keras.Input((32, 32, 3))
            model = keras.Model(inputs, keras.layers.Dense(1)(data_augmentation(inputs)))
    """,
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
    "hugging_face_from_pretrained": """
        import tensorflow as tf
        from transformers import TFAutoModelForSequenceClassification
        strategy = tf.distribute.MirroredStrategy()
        model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased")  # expect: MG101
        model.fit(ds)
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
    "strategy_scope_helper_functions": """
        import tensorflow as tf
        from official.common import distribute_utils
        strategy = distribute_utils.get_distribution_strategy("mirrored", num_gpus=2)
        with distribute_utils.get_strategy_scope(strategy):
            model = tf.keras.Sequential()
            model.compile(optimizer="adam", loss="mse")
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
    "keras_hub_tokenizers_and_preprocessors_are_no_models": """
        import keras_hub
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        tok = keras_hub.models.BertTokenizer.from_preset("bert_base_en")
        pre = keras_hub.models.GemmaCausalLMPreprocessor.from_preset("gemma_2b_en")
        clf = keras_hub.models.BertClassifier.from_preset("bert_base_en", num_classes=2)  # expect: MG101
        clf.fit(ds)
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
    # tensorflow/docs custom_training: after training in the scope, a new model is restored from the
    # checkpoint outside any strategy, only to evaluate.
    "custom_loop_tutorial_restores_an_unreplicated_model_to_evaluate": """
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
    """,
}
