"""Shapes real training code takes, each seen in public code, valid and invalid.

Each case is a small program with ``# expect: CODE`` on the lines that must be
reported; every other line must stay silent. The bigger scripts live in the
corpus (tests/corpus); these pin one shape each.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from mirrorguard.checker import check_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpus"))
from labels import expected_in_source as expectations  # noqa: E402


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
    # --- values that travel
    "metrics_reach_compile_through_a_parameter_default": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        METRICS = [tf.keras.metrics.AUC(name="auc"), "accuracy"]  # expect: MG103

        def make_model(metrics=METRICS):
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="binary_crossentropy", metrics=metrics)
            return model

        with strategy.scope():
            model = make_model()
    """,
    "optimizer_made_in_a_default_argument": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def build(opt=tf.keras.optimizers.Adam(1e-3)):  # expect: MG103
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=opt, loss="mse")
            return model

        with strategy.scope():
            model = build()
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
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shape(name):
    source = textwrap.dedent(SHAPES[name]).lstrip("\n")
    found = {(f.line, f.code) for f in check_source(source, f"{name}.py")}
    assert found == expectations(source)


def test_constructor_finding_names_the_class_not_init():
    source = textwrap.dedent(SHAPES["constructor_inside_and_outside_names_the_class"]).lstrip("\n")
    messages = [f.message for f in check_source(source)]
    assert messages and all(m.startswith("`Trainer()` ") for m in messages)


BRANCH_SHAPES = {
    # try/except: the fallback strategy and its model are one alternative, not a rebinding
    "try_except_alternatives_keep_the_binding": """
        import tensorflow as tf
        try:
            resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
            strategy = tf.distribute.TPUStrategy(resolver)
        except ValueError:
            strategy = tf.distribute.get_strategy()
        optimizer = tf.keras.optimizers.Adam()  # expect: MG103
        try:
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer=optimizer, loss="mse")
        except RuntimeError:
            model = None
    """,
    "host_metric_then_rebound_inside_scope": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        auc = tf.keras.metrics.AUC()
        auc.update_state(labels, scores)
        with strategy.scope():
            auc = tf.keras.metrics.AUC()
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse", metrics=[auc])
    """,
}


@pytest.mark.parametrize("name", sorted(BRANCH_SHAPES))
def test_branch_shape(name):
    source = textwrap.dedent(BRANCH_SHAPES[name]).lstrip("\n")
    found = {(f.line, f.code) for f in check_source(source, f"{name}.py")}
    assert found == expectations(source)
