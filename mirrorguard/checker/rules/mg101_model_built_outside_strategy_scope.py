"""MG101 model-built-outside-strategy-scope."""

from __future__ import annotations

import ast
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, Fix, Report, Rule
from mirrorguard.checker.semantic import CallSite, Effect, SemanticModel, last_identifier

_GRAPH_ENDS = frozenset({"input", "inputs", "output", "outputs"})


def builds_model(site: CallSite, model: SemanticModel) -> bool:
    """Does the call construct a Keras model with fresh variables?"""
    qualified = site.qualified
    if any(api.builds_model(q) for q in qualified):
        return not _rewires_existing_model(site) and not _only_weightless_layers(site, model)
    factories = model.extra_model_factories
    if factories and (last_identifier(site.node.func) in factories or any(q in factories for q in qualified)):
        return True
    if qualified:
        return False
    func = site.node.func
    if (isinstance(func, ast.Attribute) and func.attr == "build" and isinstance(func.value, ast.Attribute)
            and func.value.attr == "hypermodel"):
        return True  # Keras Tuner: tuner.hypermodel.build(best_hps) runs the user's model builder.
    if model.instantiated_class(site) in model.model_classes:
        return True
    called = model.class_method_called(site)
    return called is not None and called[0] in model.model_classes and called[1] == "from_preset"


def _only_weightless_layers(site: CallSite, model: SemanticModel) -> bool:
    """``Sequential([RandomFlip(...), RandomRotation(...), Rescaling(...)])``: an
    augmentation pipeline with no variables, which may live outside the scope."""
    if not any(q.endswith("Sequential") for q in site.qualified):
        return False
    layers = site.node.args[0] if site.node.args else getattr(site.keyword("layers"), "value", None)
    if not isinstance(layers, (ast.List, ast.Tuple)) or not layers.elts:
        return False
    return all(
        isinstance(layer, ast.Call) and any(api.weightless_layer(q) for q in model.qualify(layer.func))
        for layer in layers.elts
    )


def _rewires_existing_model(site: CallSite) -> bool:
    """``keras.Model(model.inputs, [model.get_layer("conv").output, model.output])``.

    A functional model made only of another model's input and output tensors
    (Grad-CAM, feature extractors) adds no layers and so no variables. A new
    layer applied on the way (``Dense(10)(base.output)``) is not a plain
    attribute read and keeps the call a model construction.
    """
    if not any(q in ("keras.Model", "keras.models.Model") for q in site.qualified):
        return False
    node = site.node
    values = site.positional() + [k.value for k in node.keywords if k.arg in ("inputs", "outputs")]
    if len(values) != 2:
        return False

    def graph_end(value: ast.AST) -> bool:
        if isinstance(value, (ast.List, ast.Tuple)):
            return bool(value.elts) and all(graph_end(e) for e in value.elts)
        return isinstance(value, ast.Attribute) and value.attr in _GRAPH_ENDS

    return all(graph_end(value) for value in values)


EFFECT = Effect("MG101", builds_model, makes_model=True, works_on_model=True)


def check(context: Context) -> Iterator[Report]:
    model = context.model
    for exposure in model.unscoped(EFFECT.code):
        site = exposure.site
        if model.kept_unreplicated(site):
            continue
        if exposure.via is None and model.constructs_in_own_scope(model.instantiated_class(site)):
            continue  # Net(strategy) whose __init__ runs super().__init__() and its layers in the scope
        yield Report(exposure.site.node, context.outside_scope(exposure, "builds a Keras model", act="build it"))


RULE = Rule(
    code="MG101",
    name="model-built-outside-strategy-scope",
    summary="Keras model built outside `strategy.scope()`",
    fix=Fix.MOVE_INTO_SCOPE,
    check=check,
    effect=EFFECT,
    docs="""
    ## What it does
    Flags Keras model construction that does not run inside the scope of the
    file's `tf.distribute` strategy: `Sequential(...)`, functional
    `Model(inputs, outputs)`, `keras.applications.*` networks, Hugging Face
    `TF*.from_pretrained(...)`/`from_config(...)`, `keras_hub`/`keras_nlp`/
    `keras_cv` `from_preset(...)`, instances of `keras.Model` subclasses
    defined in the file (with what their `__init__` does, such as compiling),
    and calls of the file's own functions (also through `functools.partial`)
    that build a model without entering a scope themselves (reported at the
    call). A model built before the strategy is created counts too when it is
    used once the strategy exists; one built, compiled and trained to the end
    before it never meets the strategy. Code on a branch that no strategy of
    its function reaches (the `else:` of `if FLAGS.use_tpu: strategy = ...`)
    is not judged, and an instance of the file's model class whose `__init__`
    runs `super().__init__()` and builds its layers inside the strategy's scope
    is built in a scope (with only the layers there, Keras 3 fails at `fit`).

    A `Sequential` made only of weightless preprocessing layers
    (`RandomFlip`, `RandomRotation`, `Rescaling`...) holds no variables and
    may be made outside; one with `Normalization` or another layer with
    state may not.

    A model bound to a name that is only evaluated, used to predict, saved
    (`keras.models.save_model(m, p)`, `m.save(p)`, also chained:
    `tuner.hypermodel.build(hp).save(p)`), inspected (`type(m.weights[0])`)
    or never used at all, beside a model built inside the scope or a tuner
    given `distribution_strategy=`, is left alone: keeping an unreplicated
    copy is deliberate. A lone model is the one the strategy was made for,
    and is reported even before it is used.

    ## Why is this bad?
    The model's variables become plain variables on one device instead of
    `MirroredVariable`s. With everything outside the scope, training runs
    silently on one replica. With only `compile()` inside, Keras 3 fails at
    `fit()` with `RuntimeError: Need to be inside "with strategy.scope()"` and
    tf-keras at `compile()` with `ValueError: Variable (...) was not created in
    the distribution strategy scope`. A backbone built outside and wrapped by a
    model built inside fails with `colocate_vars_with must only be passed a
    variable created in this tf.distribute.Strategy.scope()`.

    ## Example
    ```python
    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    ```

    ## Use instead
    ```python
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        model.compile(optimizer="adam", loss="mse")
    ```

    ## References
    - https://www.tensorflow.org/guide/distributed_training#use_tfdistributestrategy_with_keras_modelfit
    """,
    valid=(
        # Built, compiled and trained to the end before any strategy exists: it never
        # meets one (the wrong answer of the multi-GPU basics lab; MG107 reports the strategy).
        Case("""
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
        model.fit(ds, epochs=2)
        strategy = tf.distribute.MirroredStrategy()
        """),
        # A scope factory the caller hands in (tensorflow/similarity's parametrised
        # test_contrastive_model.py: `strategy` is None or `lambda: MirroredStrategy().scope()`).
        Case("""
        from contextlib import nullcontext
        import tensorflow as tf
        def test_save_and_reload(strategy):
            with strategy() if strategy is not None else nullcontext():
                model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
                model.compile(optimizer="adam", loss="mse")
            model.fit(ds)
        """),
        Case("""
        from contextlib import nullcontext
        import tensorflow as tf
        def train(scope_fn=None):
            with scope_fn() if scope_fn is not None else nullcontext():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer="adam", loss="mse")
            model.fit(ds)
        strategy = tf.distribute.MirroredStrategy()
        train(strategy.scope)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        """),
        Case("""
        import tensorflow as tf
        def build():
            return tf.keras.Sequential([tf.keras.layers.Dense(1)])
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build()
        """),
        Case("""
        import tensorflow as tf
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # no strategy in play
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            replicated = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        with tf.init_scope():
            unreplicated = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        unreplicated.evaluate(ds)
        """),
        # Issue 17, deliberate copies beside the replicated model: one never used
        # (SaKi1309/ML_Notebooks GAN_distributed_training: a demo Generator() only drawn),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
        demo = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        """),
        # one built only to be saved (`keras.models.save_model(m, p)`),
        Case("""
        import keras
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = keras.Sequential([keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
        export = keras.Sequential([keras.layers.Dense(1)])
        keras.models.save_model(export, "/tmp/export.keras")
        """),
        # and a tuner's best model rebuilt only to be saved (ageron/handson-ml3 chapter 19),
        # bound to a name or not: the tuner given the strategy built the trained ones.
        Case("""
        import keras_tuner as kt
        import tensorflow as tf
        tuner = kt.Hyperband(build_model, objective="val_loss", distribution_strategy=tf.distribute.MirroredStrategy())
        tuner.search(x, y, epochs=1)
        best_hp = tuner.get_best_hyperparameters()[0]
        best_model = tuner.hypermodel.build(best_hp)
        best_model.save("/tmp/best")
        tuner.hypermodel.build(best_hp).save("/tmp/best_again")
        """),
        # The branch of `if FLAGS.use_tpu:` that makes no strategy runs with none (absl TPU-or-local scripts).
        Case("""
        import tensorflow as tf
        def main(_):
            if FLAGS.use_tpu:
                resolver = tf.distribute.cluster_resolver.TPUClusterResolver(FLAGS.tpu)
                strategy = tf.distribute.TPUStrategy(resolver)
                with strategy.scope():
                    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                    model.compile(optimizer="adam", loss="mse")
            else:
                model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                model.compile(optimizer="adam", loss="mse")
            model.fit(ds)
        """),
        # A model class whose __init__ constructs the model (super().__init__()) and its
        # layers inside the strategy's scope, and whose compile() enters it too.
        Case("""
        import keras
        import tensorflow as tf
        class DistributedNet(keras.Model):
            def __init__(self, strategy):
                with strategy.scope():
                    super().__init__()
                    self.strategy = strategy
                    self.dense = keras.layers.Dense(1)
                    self.build((None, 4))
            def call(self, x):
                return self.dense(x)
            def compile(self, **kwargs):
                with self.strategy.scope():
                    super().compile(**kwargs)
        strategy = tf.distribute.MirroredStrategy()
        net = DistributedNet(strategy)
        net.compile(optimizer="adam", loss="mse")
        net.fit(ds)
        """),
    ),
    invalid=(
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        with strategy.scope():
            model.compile(optimizer="adam", loss="mse")
        """, lines=(3,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        """),
        Case("""
        import tensorflow as tf
        from tensorflow import keras
        def build():
            return keras.Sequential([keras.layers.Dense(1)])
        strategy = tf.distribute.MirroredStrategy()
        model = build()
        model.fit(ds)
        """, lines=(6,), fixed="""
        import tensorflow as tf
        from tensorflow import keras
        def build():
            return keras.Sequential([keras.layers.Dense(1)])
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build()
        model.fit(ds)
        """),
        # A copy beside the replicated model that is trained is no deliberate copy.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        copy = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        copy.fit(ds)
        """, lines=(5,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            copy = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        copy.fit(ds)
        """),
        # After `if use_tpu: strategy = TPUStrategy(...) else: strategy = MirroredStrategy()`
        # a strategy exists on every path.
        Case("""
        import tensorflow as tf
        if use_tpu:
            strategy = tf.distribute.TPUStrategy(resolver)
        else:
            strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.fit(ds)
        """, lines=(6,), fixed="""
        import tensorflow as tf
        if use_tpu:
            strategy = tf.distribute.TPUStrategy(resolver)
        else:
            strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.fit(ds)
        """),
        # Only the layers in the scope, `super().__init__()` outside: the Keras model is made
        # outside and Keras 3 fails at fit (measured: 'Need to be inside "with strategy.scope()"').
        Case("""
        import keras
        import tensorflow as tf
        class Net(keras.Model):
            def __init__(self, strategy):
                super().__init__()
                self.strategy = strategy
                with self.strategy.scope():
                    self.dense = keras.layers.Dense(1)
        strategy = tf.distribute.MirroredStrategy()
        net = Net(strategy)
        """, lines=(10,), fixed="""
        import keras
        import tensorflow as tf
        class Net(keras.Model):
            def __init__(self, strategy):
                super().__init__()
                self.strategy = strategy
                with self.strategy.scope():
                    self.dense = keras.layers.Dense(1)
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            net = Net(strategy)
        """),
        Case("""
        import keras
        from tensorflow.distribute import MirroredStrategy as MS
        class Net(keras.Model):
            pass
        strategy = MS()
        net = Net()
        with strategy.scope():
            net.compile(optimizer="adam", loss="mse")
        """, lines=(6,), fixed="""
        import keras
        from tensorflow.distribute import MirroredStrategy as MS
        class Net(keras.Model):
            pass
        strategy = MS()
        with strategy.scope():
            net = Net()
            net.compile(optimizer="adam", loss="mse")
        """),
    ),
)
