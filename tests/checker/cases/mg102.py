"""MG102's cases kept with the tests: SHAPES, small whole programs, each in one shape that real training
code takes. ``# expect: MGnnn`` marks every line that must be reported, by any
rule; every other line must stay silent (every default rule runs). The rule's own VALID/INVALID cases
stay in its module (mirrorguard/checker/rules/); tests/checker/test_rule_cases.py runs both.
"""

SHAPES = {
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
    "positional_compile_on_any_model_name": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            m = tf.keras.Sequential()
            ae = tf.keras.Sequential()
        m.compile("adam", "mse")  # expect: MG102
        ae.compile(tf.keras.optimizers.Adam(1e-3), "binary_crossentropy")  # expect: MG102
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
}
