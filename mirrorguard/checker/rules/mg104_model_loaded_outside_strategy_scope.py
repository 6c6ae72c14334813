"""MG104 model-loaded-outside-strategy-scope."""

from __future__ import annotations

from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.rules.base import Case, Context, Fix, Report, Rule
from mirrorguard.checker.semantic import CallSite, Effect, SemanticModel


def loads_model(site: CallSite, model: SemanticModel) -> bool:
    """Does the call load, clone or deserialise a Keras model?"""
    if any(api.loads_model(q) for q in site.qualified):
        return True
    called = model.class_method_called(site)
    return called is not None and called[0] in model.model_classes and called[1] == "from_config"


EFFECT = Effect("MG104", loads_model, makes_model=True, works_on_model=True)


def check(context: Context) -> Iterator[Report]:
    for exposure in context.model.unscoped(EFFECT.code):
        if context.model.kept_unreplicated(exposure.site):
            continue
        yield Report(exposure.site.node, context.outside_scope(exposure, "loads a Keras model", act="load it"))


RULE = Rule(
    code="MG104",
    name="model-loaded-outside-strategy-scope",
    summary="Keras model loaded, cloned or deserialised outside `strategy.scope()`",
    fix=Fix.MOVE_INTO_SCOPE,
    check=check,
    effect=EFFECT,
    docs="""
    ## What it does
    Flags `load_model` in all its spellings (`keras.models.load_model`,
    `keras.saving.load_model`, `tf.keras.models.load_model`), `clone_model`,
    `model_from_json`, `model_from_config` and `Model.from_config` outside
    the strategy's scope (Hugging Face `TF*.from_pretrained` constructs a
    model: that is MG101). An unreplicated
    copy kept beside a model loaded inside the scope, and only evaluated,
    used to predict, inspected (`type(m.weights[0])`) or never used, is left
    alone, and so is a reload used only through its serving signature
    (`load_model(p).signatures["serving_default"]`).

    ## Why is this bad?
    Loading creates the model's variables: outside the scope they are not
    mirrored, so further training either runs on one replica or fails as a
    model built outside does (see MG101).

    ## Example
    ```python
    model = tf.keras.models.load_model("checkpoint.keras")
    model.fit(train_ds, epochs=3)
    ```

    ## Use instead
    ```python
    with strategy.scope():
        model = tf.keras.models.load_model("checkpoint.keras")
    model.fit(train_ds, epochs=3)
    ```
    """,
    valid=(
        # Issue 17, deliberate copies: a reload only inspected (ageron/handson-ml3 chapter 19
        # shows that saving drops the distribution: `type(model.weights[0])`),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        model.fit(ds)
        model.save("saved")
        model = tf.keras.models.load_model("saved")
        type(model.weights[0])
        with strategy.scope():
            model = tf.keras.models.load_model("saved")
        model.fit(ds)
        """),
        # a SavedModel's serving signature used to predict (tensorflow/docs save_and_load),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.models.load_model("saved")
        model.fit(ds)
        infer = tf.keras.models.load_model("saved").signatures["serving_default"]
        print(infer(tf.constant([[1.0]])))
        loaded = tf.keras.models.load_model("saved")
        serve = loaded.signatures["serving_default"]
        """),
        # and a reload never used.
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.models.load_model("saved")
        model.fit(ds)
        spare = tf.keras.models.load_model("saved")
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            replicated = tf.keras.models.load_model("m.keras")
        replicated.fit(train_ds)
        unreplicated = tf.keras.models.load_model("m.keras")
        unreplicated.evaluate(eval_ds)
        """),
    ),
    invalid=(
        # Printing an attribute of the reload is no sign it is kept out on purpose (red-team round 2).
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.models.load_model("saved")
        copy = tf.keras.models.load_model("saved")
        copy.fit(ds)
        """, lines=(5,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.models.load_model("saved")
            copy = tf.keras.models.load_model("saved")
        copy.fit(ds)
        """),
        Case("""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.models.load_model("m.keras")
        model.fit(train_ds)
        """, lines=(3,), fixed="""
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.models.load_model("m.keras")
        model.fit(train_ds)
        """),
        Case("""
        from keras.models import clone_model
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            base = make()
        copy = clone_model(base)
        train(copy)
        """, lines=(5,), fixed="""
        from keras.models import clone_model
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            base = make()
            copy = clone_model(base)
        train(copy)
        """),
    ),
)
